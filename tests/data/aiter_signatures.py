"""aiter's published signatures of the functions generated code calls (test data).

Recorded from ROCm/aiter's Python API at commit AITER_COMMIT (AITER_DATE), the
aiter of the leaderboard's MI355X runner (specs/mi355x.yaml target.stack):
aiter/mla.py (mla_decode_fwd), aiter/ops/attention.py (get_mla_metadata_info_v1,
get_mla_metadata_v1, re-exported by `aiter`), aiter/ops/quant.py
(static_per_tensor_quant, dynamic_per_tensor_quant), as used by the task's
reference (gpu-mode/reference-kernels, problems/amd_202602/mixed-mla/reference.py).
Parameters only; bodies are not aiter's. Each entry: (module the generated file
must import it from, stub).
"""

AITER_COMMIT = "f3be04a"
AITER_DATE = "2026-03-04"


def mla_decode_fwd(
    q,
    kv_buffer,
    o,
    qo_indptr,
    kv_indptr,
    kv_indices,
    kv_last_page_lens,
    max_seqlen_q,
    page_size=1,
    nhead_kv=1,
    sm_scale=None,
    logit_cap=0.0,
    num_kv_splits=None,
    num_kv_splits_indptr=None,
    work_meta_data=None,
    work_indptr=None,
    work_info_set=None,
    reduce_indptr=None,
    reduce_final_map=None,
    reduce_partial_map=None,
    q_scale=None,
    kv_scale=None,
    intra_batch_mode=False,
    return_logits=False,
    return_lse=False,
): ...


def get_mla_metadata_info_v1(
    batch_size,
    max_seqlen_qo,
    num_head_qo,
    q_dtype,
    kv_dtype,
    is_sparse,
    fast_mode=True,
    num_kv_splits=32,
    intra_batch_mode=False,
): ...


def get_mla_metadata_v1(
    seqlens_qo_indptr,
    seqlens_kv_indptr,
    kv_last_page_lens,
    num_heads_per_head_k,
    num_heads_k,
    is_causal,
    work_metadata_ptrs,
    work_info_set,
    work_indptr,
    reduce_indptr,
    reduce_final_map,
    reduce_partial_map,
    page_size=1,
    kv_granularity=16,
    max_seqlen_qo=-1,
    uni_seqlen_qo=-1,
    fast_mode=True,
    topk=-1,
    max_split_per_batch=-1,
    intra_batch_mode=False,
    dtype_q=None,
    dtype_kv=None,
): ...


def static_per_tensor_quant(out, input, scale): ...


def dynamic_per_tensor_quant(out, input, scale): ...


SIGNATURES = {
    "mla_decode_fwd": ("aiter.mla", mla_decode_fwd),
    "get_mla_metadata_info_v1": ("aiter", get_mla_metadata_info_v1),
    "get_mla_metadata_v1": ("aiter", get_mla_metadata_v1),
    "static_per_tensor_quant": ("aiter.ops.quant", static_per_tensor_quant),
    "dynamic_per_tensor_quant": ("aiter.ops.quant", dynamic_per_tensor_quant),
}
