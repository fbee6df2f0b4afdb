"""Float32 references for MLA decode, honouring indptrs, q_seq_len > 1 and any head count.

- leaderboard_reference mirrors the leaderboard's numerics: Q quantised to fp8
  per tensor on the fly (dynamic amax), fp8 KV, then exact float32 math.
- exact_reference runs float32 math on the operands a runner actually reads:
  its KV format dequantised, and Q as its Q mode hands it to the kernel. The
  strict check compares a runner against this one.
"""

from __future__ import annotations

import torch

from generator.core.contract import KV_LORA, QK_DIM, SM_SCALE
from generator.gpu.inputs import dequantize_mxfp4, quantize_fp8, quantize_fp8_static


def attention(q: torch.Tensor, kv: torch.Tensor, qo_indptr, kv_indptr) -> torch.Tensor:
    """out[t, h] = softmax_j(SM_SCALE * q[t, h] . kv[j]) @ kv[j, :512] over t's segment,
    causal and end-aligned when a segment has several query tokens; float32.
    A query that sees no key (empty segment) gets zeros."""
    q, kv = q.float(), kv.float().reshape(-1, QK_DIM)
    out = torch.zeros((q.shape[0], q.shape[1], KV_LORA), dtype=torch.float32, device=q.device)
    qo, kvp = qo_indptr.tolist(), kv_indptr.tolist()
    for b in range(len(qo) - 1):
        q_seg = q[qo[b] : qo[b + 1]]
        k_seg = kv[kvp[b] : kvp[b + 1]]
        q_len, kv_len = q_seg.shape[0], k_seg.shape[0]
        if q_len == 0 or kv_len == 0:
            continue
        scores = torch.einsum("thd,jd->thj", q_seg, k_seg) * SM_SCALE
        # token t sees keys j < kv_len - q_len + t + 1
        limit = kv_len - q_len + 1 + torch.arange(q_len, device=q.device)
        visible = torch.arange(kv_len, device=q.device)[None, :] < limit[:, None]
        scores = scores.masked_fill(~visible[:, None, :], float("-inf"))
        # a token that sees no key has an all -inf row: softmax gives NaN, make it 0
        probs = torch.softmax(scores, dim=-1).nan_to_num(0.0)
        out[qo[b] : qo[b + 1]] = torch.einsum("thj,jd->thd", probs, k_seg[:, :KV_LORA])
    return out


def dequantized_kv(kv_data: dict, kv_format: str) -> torch.Tensor:
    """The KV rows a runner of this format reads, as float32 (total_kv, 576)."""
    if kv_format == "bf16":
        return kv_data["bf16"].float().reshape(-1, QK_DIM)
    if kv_format == "fp8":
        kv, scale = kv_data["fp8"]
        return kv.float().reshape(-1, QK_DIM) * scale
    if kv_format == "mxfp4":
        packed, scales = kv_data["mxfp4"]
        packed = packed.view(torch.uint8)
        return dequantize_mxfp4(packed.reshape(packed.shape[0], -1), scales)
    raise ValueError(f"unknown KV format {kv_format!r}")


def q_as_read(q: torch.Tensor, q_mode: str, fp8_dtype: torch.dtype, q_scale: float | None):
    """Q as a runner of this Q mode feeds it to the attention, float32."""
    if q_mode == "bf16":
        return q.float()
    if q_mode == "fp8_static":
        return quantize_fp8_static(q, q_scale, fp8_dtype).float() * q_scale
    if q_mode == "fp8_dynamic":
        q8, scale = quantize_fp8(q, fp8_dtype)
        return q8.float() * scale
    raise ValueError(f"unknown Q mode {q_mode!r}")


def leaderboard_reference(data, fp8_dtype: torch.dtype) -> torch.Tensor:
    """fp8 Q (dynamic per-tensor) x fp8 KV, float32 math: the leaderboard's numerics."""
    q, kv_data, qo_indptr, kv_indptr, _ = data
    q_read = q_as_read(q, "fp8_dynamic", fp8_dtype, None)
    return attention(q_read, dequantized_kv(kv_data, "fp8"), qo_indptr, kv_indptr)


def exact_reference(data, kv_format: str, q_mode: str, fp8_dtype, q_scale=None) -> torch.Tensor:
    """Float32 math over exactly the operands a runner reads."""
    q, kv_data, qo_indptr, kv_indptr, _ = data
    q_read = q_as_read(q, q_mode, fp8_dtype, q_scale)
    return attention(q_read, dequantized_kv(kv_data, kv_format), qo_indptr, kv_indptr)
