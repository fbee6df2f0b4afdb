"""Unit tests of the plan: every derived value, without rendering."""

import dataclasses

import pytest

from generator.plan import SM_SCALE, build_plan
from generator.spec import parse_spec

TARGET = "target: {name: t, platform: cuda, fp8_format: e4m3fn}\n"


def plan_of(shapes: str, fallback="{backend: triton_split, splits: 4}", target=TARGET, **kw):
    spec = parse_spec(f"{target}shapes:\n{shapes}\nfallback: {fallback}\n", "t.yaml")
    return build_plan(spec, **kw)


def consts(runner, which="stage1_consts"):
    return {c.name: c.value for c in getattr(runner, which)}


def test_split_runner_names_grid_and_defaults():
    plan = plan_of("  - {batch: 32, kv_len: 8192, backend: triton_split, splits: 8}")
    r = plan.runners[0]
    assert (r.runner, r.stage1, r.stage2) == (
        "run_b32_kv8192", "mla_b32_kv8192_split8_stage1", "mla_b32_kv8192_split8_stage2")
    assert r.key == (32, 8192, 1, 16)
    assert r.grid1 == "(32, 1, 8)" and r.grid2 == "(32, 1, 4)"  # 512 / reduce_block_dv 128
    c = consts(r)
    assert c["BLOCK_N"] == "32" and c["NUM_SPLITS"] == "8" and c["CAUSAL"] == "False"
    assert c["QK_DTYPE"] == c["PV_DTYPE"] == "tl.float16"
    assert dict(r.launch1) == {"num_warps": "4", "num_stages": "3"}
    assert r.total_q == "32" and r.num_heads == "16"


def test_single_runner_has_no_reduce():
    r = plan_of("  - {batch: 256, kv_len: 1024, backend: triton_single}").runners[0]
    assert r.stage1 == "mla_b256_kv1024_single" and r.stage2 is None and not r.reduce
    assert r.grid1 == "(256, 1, 1)"


def test_fp8_static_q_scale_and_fp8_scores():
    r = plan_of("  - {batch: 4, kv_len: 64, backend: triton_single, q_mode: fp8_static}").runners[0]
    c = consts(r)
    assert r.stage1.endswith("_fp8q")
    assert float(c["Q_SCALE"]) == pytest.approx(6.0 / 448.0)
    assert c["Q_FP8"] == "True" and c["QK_DTYPE"] == "tl.float8e4nv"


def test_fp8_q_against_bf16_kv_widens_scores_to_the_mma_type():
    r = plan_of("  - {batch: 4, kv_len: 64, backend: triton_single, q_mode: fp8_static,"
                " kv_format: bf16}").runners[0]
    assert consts(r)["QK_DTYPE"] == "tl.float16"
    assert r.kv_unpack == 'kv, kv_scale = kv_data["bf16"], None'


def test_fnuz_target_uses_its_fp8_type_and_max():
    target = "target: {name: t, platform: rocm, fp8_format: e4m3fnuz}\n"
    plan = plan_of("  - {batch: 4, kv_len: 64, backend: triton_single, q_mode: fp8_static}",
                   target=target)
    assert plan.fp8_tl == "tl.float8e4b8" and plan.fp8_max == "240.0"
    assert float(consts(plan.runners[0])["Q_SCALE"]) == pytest.approx(6.0 / 240.0)


def test_interpreter_build_feeds_dots_float32():
    plan = plan_of("  - {batch: 4, kv_len: 64, backend: triton_single, q_mode: fp8_static}",
                   interpret=True)
    c = consts(plan.runners[0])
    assert plan.interpret and c["QK_DTYPE"] == c["PV_DTYPE"] == "tl.float32"


def test_multi_token_and_32_heads_pick_query_blocks():
    plan = plan_of("  - {batch: 8, kv_len: 512, q_seq_len: 4, backend: triton_split, splits: 2}\n"
                   "  - {batch: 8, kv_len: 512, q_seq_len: 4, num_heads: 32, backend: triton_single}\n"
                   "  - {batch: 8, kv_len: 512, q_seq_len: 3, num_heads: 32, backend: triton_single, block_q: 2}")
    a, b, c = (consts(r) for r in plan.runners)
    assert (a["BLOCK_Q"], a["BLOCK_H"], a["CAUSAL"]) == ("4", "16", "True")
    assert (b["BLOCK_Q"], b["BLOCK_H"]) == ("4", "32")
    assert plan.runners[1].grid1 == "(8, 1, 1)"
    assert (c["BLOCK_Q"], plan.runners[2].grid1) == ("2", "(8, 2, 1)")
    assert plan.runners[1].total_q == "32" and plan.runners[1].num_heads == "32"


def test_fallback_sizes_come_from_the_inputs():
    fb = plan_of("  - {batch: 4, kv_len: 64, backend: triton_single}").fallback
    c = {x.name: x for x in fb.stage1_consts}
    assert fb.key is None and fb.runner == "run_fallback"
    assert c["NUM_HEADS"].value is None and c["NUM_HEADS"].launch == "q.shape[1]"
    assert c["CAUSAL"].value == "True"
    assert fb.grid1 == '(qo_indptr.shape[0] - 1, triton.cdiv(config["q_seq_len"], 1), 4)'
    # constexprs passed at launch come before those with defaults (Python signature order)
    values = [x.value for x in fb.stage1_consts]
    assert values.index(None) < values.index("1") and values.count(None) == 2


def test_imports_follow_backends():
    h200 = plan_of("  - {batch: 4, kv_len: 64, backend: torch_bmm}")
    assert not any("aiter" in line for line in h200.imports)
    rocm = "target: {name: m, platform: rocm, fp8_format: e4m3fn, aiter: true}\n"
    m = plan_of("  - {batch: 4, kv_len: 64, backend: aiter, splits: 2, persistent: true}\n"
                "  - {batch: 8, kv_len: 64, backend: aiter, splits: 2, q_mode: fp8_dynamic}",
                target=rocm)
    assert "from aiter import get_mla_metadata_info_v1, get_mla_metadata_v1" in m.imports
    assert "from aiter.mla import mla_decode_fwd" in m.imports
    assert ("from aiter.ops.quant import dynamic_per_tensor_quant, static_per_tensor_quant"
            in m.imports)
    assert m.uses_aiter and not h200.uses_aiter


def test_aiter_plan_fields():
    rocm = "target: {name: m, platform: rocm, fp8_format: e4m3fn, aiter: true}\n"
    r = plan_of("  - {batch: 4, kv_len: 64, backend: aiter, splits: 2}", target=rocm).runners[0]
    assert (r.aiter_quant, r.aiter_q_arg, r.aiter_q_scale_arg) == (
        "static_per_tensor_quant", 'ctx["q_fp8"]', 'ctx["q_scale"]')
    assert float(r.q_scale) == pytest.approx(6.0 / 448.0) and not r.persistent


def test_target_options_reach_every_launch():
    rocm = ("target: {name: m, platform: rocm, fp8_format: e4m3fn,"
            " triton_options: {waves_per_eu: 1, kpack: 2}}\n")
    r = plan_of("  - {batch: 4, kv_len: 64, backend: triton_split, splits: 2}", target=rocm).runners[0]
    assert ("waves_per_eu", "1") in r.launch1 and ("kpack", "2") in r.launch2


def test_plan_is_plain_frozen_data():
    plan = plan_of("  - {batch: 4, kv_len: 64, backend: torch_bmm}")
    with pytest.raises(dataclasses.FrozenInstanceError):
        plan.target = "x"
    assert plan.describe()["runners"][0]["runner"] == "run_b4_kv64"
    assert float(plan.sm_scale) == SM_SCALE


def test_merge_in_the_attention_kernel_drops_the_reduce_kernel():
    r = plan_of("  - {batch: 4, kv_len: 1024, backend: triton_split, splits: 16,"
                " merge: last_split}").runners[0]
    assert r.merge_in_stage1 and r.writes_out and r.reduce
    assert r.stage1 == "mla_b4_kv1024_split16_merged" and r.stage2 is None and r.grid2 is None
    k = plan_of("  - {batch: 4, kv_len: 1024, backend: triton_split, splits: 16}").runners[0]
    assert not k.merge_in_stage1 and not k.writes_out and k.stage2
