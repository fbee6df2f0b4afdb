"""Unit tests of the plan: every derived value, without rendering."""

import dataclasses

import pytest

from generator.core.contract import SM_SCALE
from generator.core.plan import Dtype, Dyn
from generator.core.planner import build_plan
from generator.core.spec import parse_spec

TARGET = "target: {name: t, platform: cuda, fp8_format: e4m3fn}\n"
ROCM = "target: {name: m, platform: rocm, fp8_format: e4m3fn, aiter: true}\n"


def plan_of(shapes: str, fallback="{backend: triton_split, splits: 4}", target=TARGET, **kw):
    spec = parse_spec(f"{target}shapes:\n{shapes}\nfallback: {fallback}\n", "t.yaml")
    return build_plan(spec, **kw)


def consts(launch):
    return {c.name: c.value for c in launch.constexprs}


def test_split_runner_names_grid_and_defaults():
    plan = plan_of("  - {batch: 32, kv_len: 8192, backend: triton_split, splits: 8}")
    r = plan.runners[0]
    stage1, stage2 = r.launches
    assert (r.name, stage1.kernel, stage2.kernel) == (
        "run_b32_kv8192", "mla_b32_kv8192_split8_stage1", "mla_b32_kv8192_split8_stage2")
    assert (stage1.family, stage2.family) == ("attend", "merge")
    assert r.key == (32, 8192, 1, 16)
    assert stage1.grid == (32, 1, 8) and stage2.grid == (32, 1, 4)  # 512 / reduce_block_dv 128
    c = consts(stage1)
    assert c["BLOCK_N"] == 32 and c["NUM_SPLITS"] == 8 and c["CAUSAL"] is False
    assert c["QK_DTYPE"] == c["PV_DTYPE"] == Dtype("float16")
    assert c["MERGE"] == "kernel" and r.detail.merge == "kernel" and r.detail.splits == 8
    assert dict(stage1.options) == {"num_warps": 4, "num_stages": 3}
    assert r.sizes.total_q == 32 and r.sizes.num_heads == 16


def test_buffer_shapes_are_computed_in_the_plan():
    r = plan_of("  - {batch: 32, kv_len: 8192, backend: triton_split, splits: 8}").runners[0]
    shapes = {b.name: (b.shape, b.dtype, b.zeroed) for b in r.detail.buffers}
    assert shapes == {
        "part_o": ((8, 32, 16, 512), "float32", False),
        "part_lse": ((8, 32, 16), "float32", False),
        "out": ((32, 16, 512), "bfloat16", False),
    }
    assert r.detail.buffer_args == ()


def test_single_runner_has_no_reduce():
    r = plan_of("  - {batch: 256, kv_len: 1024, backend: triton_single}").runners[0]
    (launch,) = r.launches
    assert launch.kernel == "mla_b256_kv1024_single" and r.detail.merge == "none"
    assert launch.grid == (256, 1, 1)
    assert [b.name for b in r.detail.buffers] == ["out"]


def test_fp8_static_q_scale_and_fp8_scores():
    r = plan_of("  - {batch: 4, kv_len: 64, backend: triton_single, q_mode: fp8_static}").runners[0]
    c = consts(r.launches[0])
    assert r.launches[0].kernel.endswith("_fp8q")
    # The Q scale stays a float from the plan to the constexpr (and the check).
    assert c["Q_SCALE"] == r.q_scale == pytest.approx(6.0 / 448.0)
    assert isinstance(r.q_scale, float)
    assert c["Q_FP8"] is True and c["QK_DTYPE"] == Dtype("float8e4nv")


def test_fp8_q_against_bf16_kv_widens_scores_to_the_mma_type():
    r = plan_of("  - {batch: 4, kv_len: 64, backend: triton_single, q_mode: fp8_static,"
                " kv_format: bf16}").runners[0]
    assert consts(r.launches[0])["QK_DTYPE"] == Dtype("float16")
    assert r.kv_format == "bf16"


def test_fnuz_target_uses_its_fp8_type_and_max():
    target = "target: {name: t, platform: rocm, fp8_format: e4m3fnuz}\n"
    plan = plan_of("  - {batch: 4, kv_len: 64, backend: triton_single, q_mode: fp8_static}",
                   target=target)
    r = plan.runners[0]
    assert r.detail.fp8 == Dtype("float8e4b8") and plan.fp8_max == 240.0
    assert consts(r.launches[0])["Q_SCALE"] == pytest.approx(6.0 / 240.0)


def test_interpreter_build_feeds_dots_float32():
    plan = plan_of("  - {batch: 4, kv_len: 64, backend: triton_single, q_mode: fp8_static}",
                   interpret=True)
    c = consts(plan.runners[0].launches[0])
    assert plan.interpret and c["QK_DTYPE"] == c["PV_DTYPE"] == Dtype("float32")


def test_multi_token_and_32_heads_pick_query_blocks():
    plan = plan_of("  - {batch: 8, kv_len: 512, q_seq_len: 4, backend: triton_split, splits: 2}\n"
                   "  - {batch: 8, kv_len: 512, q_seq_len: 4, num_heads: 32, backend: triton_single}\n"
                   "  - {batch: 8, kv_len: 512, q_seq_len: 3, num_heads: 32, backend: triton_single, block_q: 2}")
    a, b, c = (consts(r.launches[0]) for r in plan.runners)
    assert (a["BLOCK_Q"], a["BLOCK_H"], a["CAUSAL"]) == (4, 16, True)
    assert (b["BLOCK_Q"], b["BLOCK_H"]) == (4, 32)
    assert plan.runners[1].launches[0].grid == (8, 1, 1)
    assert (c["BLOCK_Q"], plan.runners[2].launches[0].grid) == (2, (8, 2, 1))
    assert plan.runners[1].sizes.total_q == 32 and plan.runners[1].sizes.num_heads == 32


def test_fallback_sizes_come_from_the_inputs():
    fb = plan_of("  - {batch: 4, kv_len: 64, backend: triton_single}").fallback
    c = consts(fb.launches[0])
    assert fb.key is None and fb.name == "run_fallback"
    assert c["NUM_HEADS"] == Dyn("num_heads") and c["BLOCK_H"] == Dyn("block_h")
    assert c["CAUSAL"] is True
    assert fb.launches[0].grid == (Dyn("batch"), Dyn("q_blocks", per=1), 4)
    assert fb.detail.buffer_args == (Dyn("total_q"), Dyn("num_heads"))


def test_fallback_mma_is_bf16_on_every_platform():
    """fp16 overflows above 65504: the fallback must take any bf16 q."""
    for target in (TARGET, ROCM):
        fb = plan_of("  - {batch: 4, kv_len: 64, backend: triton_single}", target=target).fallback
        assert consts(fb.launches[0])["PV_DTYPE"] == Dtype("bfloat16"), target


def test_defaults_are_per_platform():
    shape = "  - {batch: 4, kv_len: 64, backend: triton_single}"
    cuda = consts(plan_of(shape).runners[0].launches[0])
    rocm = consts(plan_of(shape, target=ROCM).runners[0].launches[0])
    assert (cuda["BLOCK_N"], cuda["PV_DTYPE"]) == (32, Dtype("float16"))
    assert (rocm["BLOCK_N"], rocm["PV_DTYPE"]) == (64, Dtype("bfloat16"))


def test_templates_and_stdlib_follow_backends():
    h200 = plan_of("  - {batch: 4, kv_len: 64, backend: torch_bmm}")
    assert h200.templates == ("backends/torch_bmm.py.j2", "backends/triton.py.j2")
    assert h200.stdlib == ("functools",)
    m = plan_of("  - {batch: 4, kv_len: 256, backend: aiter, splits: 2, persistent: true}\n"
                "  - {batch: 8, kv_len: 256, backend: aiter, splits: 2, q_mode: fp8_dynamic}",
                target=ROCM)
    assert m.templates == ("backends/triton.py.j2", "backends/aiter.py.j2")
    assert [r.detail.quant for r in m.runners] == ["static_per_tensor_quant",
                                                   "dynamic_per_tensor_quant"]


def test_aiter_plan_fields():
    r = plan_of("  - {batch: 4, kv_len: 256, backend: aiter, splits: 2}", target=ROCM).runners[0]
    a = r.detail
    assert (a.quant, a.q_dtype, a.kv_dtype, a.splits) == ("static_per_tensor_quant", "fp8", "fp8", 2)
    assert r.q_scale == pytest.approx(6.0 / 448.0) and not a.persistent and r.launches == ()


def test_target_options_reach_every_launch():
    rocm = ("target: {name: m, platform: rocm, fp8_format: e4m3fn,"
            " triton_options: {waves_per_eu: 1, kpack: 2}}\n")
    r = plan_of("  - {batch: 4, kv_len: 64, backend: triton_split, splits: 2}", target=rocm).runners[0]
    assert ("waves_per_eu", 1) in r.launches[0].options and ("kpack", 2) in r.launches[1].options


def test_plan_is_plain_frozen_data_of_numbers_and_names():
    plan = plan_of("  - {batch: 4, kv_len: 64, backend: torch_bmm}\n"
                   "  - {batch: 8, kv_len: 64, backend: triton_split, splits: 2}")
    with pytest.raises(dataclasses.FrozenInstanceError):
        plan.target = "x"
    described = plan.describe()
    assert described["runners"][0]["name"] == "run_b4_kv64"
    assert plan.sm_scale == SM_SCALE

    prose = {"title", "summary", "header", "env", "spec_path"}  # comments and verbatim spec text

    def leaves(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if k not in prose:
                    yield from leaves(v)
        elif isinstance(node, (list, tuple)):
            for v in node:
                yield from leaves(v)
        else:
            yield node

    # No source text: strings are names (identifiers, paths, modes, titles), never code.
    for leaf in leaves(described):
        if isinstance(leaf, str):
            assert not any(ch in leaf for ch in "()[]=\""), leaf


def test_merge_in_the_attention_kernel_drops_the_reduce_kernel():
    r = plan_of("  - {batch: 4, kv_len: 1024, backend: triton_split, splits: 16,"
                " merge: last_split}").runners[0]
    (launch,) = r.launches
    assert r.detail.merge == "last_split" and consts(launch)["MERGE"] == "last_split"
    assert launch.kernel == "mla_b4_kv1024_split16_merged"
    assert [b.name for b in r.detail.buffers] == ["part_o", "part_lse", "out", "counters"]
    k = plan_of("  - {batch: 4, kv_len: 1024, backend: triton_split, splits: 16}").runners[0]
    assert k.detail.merge == "kernel" and len(k.launches) == 2


def test_gluon_splits_merge_behind_a_barrier_in_one_cooperative_launch():
    plan = plan_of("  - {batch: 4, kv_len: 1024, backend: gluon, splits: 16}\n"
                   "  - {batch: 256, kv_len: 1024, backend: gluon, splits: 1}")
    split, one_pass = plan.runners
    (attend,) = split.launches
    assert consts(attend)["NUM_SPLITS"] == 16 and attend.grid == (4, 16)
    assert ("launch_cooperative_grid", True) in attend.options and ("num_warps", 4) in attend.options
    d = split.detail
    assert d.buffer_names == ("out", "part_o", "part_lse", "counters") and d.rows == 4
    assert "PART_O" in d.params and "merged by the splits behind a barrier" in split.summary
    # one split: no partials, no counters, an ordinary launch; the body gets OUT in their place
    (launch,) = one_pass.launches
    assert all(o[0] != "launch_cooperative_grid" for o in launch.options)
    assert one_pass.detail.buffer_names == ("out",) and one_pass.detail.part_dtype is None
    assert "PART_O" not in one_pass.detail.params and one_pass.detail.body_args[-3:] == ("OUT",) * 3
    assert "merged" not in one_pass.summary


def test_committed_h200_kernels_take_at_most_ten_constexprs_and_none_is_the_same_in_every_entry():
    from generator.core.spec import load_spec
    from conftest import ROOT

    plan = build_plan(load_spec(ROOT / "specs/h200.yaml"))
    gluon = [r for r in plan.runners if r.backend == "gluon"]
    values: dict[str, set] = {}
    for r in gluon:
        (attend,) = r.launches
        assert len(attend.constexprs) <= 10, attend.kernel
        for c in attend.constexprs:
            values.setdefault(c.name, set()).add(c.value)
    assert len(gluon) == 8 and all(len(v) > 1 for v in values.values()), values


def test_gluon_speculation_guesses_the_keyed_kv_length():
    plan = plan_of("  - {batch: 4, kv_len: 1024, backend: gluon, splits: 16, speculate: true}\n"
                   "  - {batch: 256, kv_len: 8192, backend: gluon, splits: 1}")
    guessed, plain = plan.runners
    assert consts(guessed.launches[0])["GUESS_KV_LEN"] == 1024 and "speculative prologue" in guessed.summary
    assert consts(plain.launches[0])["GUESS_KV_LEN"] == 0 and "speculative" not in plain.summary


@pytest.mark.parametrize("field, const, text", [
    ("early_refill", "EARLY_REFILL", "ring slots refilled once V is in registers"),
    ("v_early", "V_EARLY", "V's first rows loaded before the softmax"),
])
def test_gluon_switch_reaches_the_kernel_and_the_summary(field, const, text):
    plan = plan_of(f"  - {{batch: 64, kv_len: 1024, backend: gluon, splits: 2, {field}: true}}\n"
                   "  - {batch: 256, kv_len: 8192, backend: gluon, splits: 1}")
    on, off = plan.runners
    assert consts(on.launches[0])[const] is True and text in on.summary
    assert consts(off.launches[0])[const] is False and text not in off.summary


def test_gluon_l2_policy_reaches_the_kernel_the_summary_and_the_imports():
    plan = plan_of("  - {batch: 64, kv_len: 1024, backend: gluon, splits: 2, l2_policy: evict_first}\n"
                   "  - {batch: 256, kv_len: 8192, backend: gluon, splits: 1}")
    hinted, plain = plan.runners
    assert consts(hinted.launches[0])["L2_POLICY"] == "evict_first" and hinted.stdlib == ("re",)
    assert "KV loads evict-first in L2" in hinted.summary
    assert consts(plain.launches[0])["L2_POLICY"] == "" and plain.stdlib == ()


def test_gluon_dv_split_doubles_the_grid_and_reaches_the_kernel_and_the_summary():
    plan = plan_of("  - {batch: 4, kv_len: 1024, backend: gluon, splits: 16, dv_split: 2, num_stages: 1}\n"
                   "  - {batch: 4, kv_len: 8192, backend: gluon, splits: 32}")
    split, whole = plan.runners
    (attend,) = split.launches
    assert attend.grid == (4, 32) and consts(attend)["DV_SPLIT"] == 2 and consts(attend)["NUM_SPLITS"] == 16
    assert "V's output dims over 2 programs a split" in split.summary
    assert whole.launches[0].grid == (4, 32) and consts(whole.launches[0])["DV_SPLIT"] == 1
    assert "programs a split" not in whole.summary


def test_gluon_partials_take_the_type_the_entry_names():
    plan = plan_of("  - {batch: 4, kv_len: 8192, backend: gluon, splits: 32, partials: fp8}\n"
                   "  - {batch: 32, kv_len: 8192, backend: gluon, splits: 4, partials: fp16}\n"
                   "  - {batch: 64, kv_len: 8192, backend: gluon, splits: 2}\n"
                   "  - {batch: 256, kv_len: 8192, backend: gluon, splits: 1, partials: fp16}")
    part = {r.tag: r.detail.part_dtype for r in plan.runners}
    assert part == {"b4_kv8192": "float8_e4m3fn", "b32_kv8192": "float16", "b64_kv8192": "float32",
                    "b256_kv8192": None}
    fp8, fp16, fp32, one_pass = plan.runners
    assert "fp8 partials" in fp8.summary and "fp16 partials" in fp16.summary
    assert "partials" not in fp32.summary and "partials" not in one_pass.summary


def test_gluon_needs_an_e4m3fn_target():
    from generator.errors import SpecError

    fnuz = "target: {name: t, platform: cuda, fp8_format: e4m3fnuz}\n"
    with pytest.raises(SpecError) as err:
        plan_of("  - {batch: 4, kv_len: 8192, backend: gluon, splits: 32}", target=fnuz)
    assert "e4m3fn" in str(err.value)


def test_gluon_passes_q_scale_as_its_inverse_and_times_the_scores_scale():
    (r,) = plan_of("  - {batch: 4, kv_len: 8192, backend: gluon, splits: 32, q_absmax: 8.0}").runners
    assert r.q_scale == 8.0 / 448.0
    assert r.detail.q_inv == pytest.approx(448.0 / 8.0, rel=1e-15)
    assert r.detail.q_qk == pytest.approx(SM_SCALE * 1.4426950408889634 * 8.0 / 448.0, rel=1e-15)


def test_gluon_runners_round_p_to_e4m3_and_take_that_bound():
    from generator.core import registry
    from generator.gpu.check import strict_bound

    (r,) = plan_of("  - {batch: 256, kv_len: 1024, backend: gluon, splits: 1}").runners
    assert r.p_fp8 and strict_bound(r) == registry.STRICT_BOUND_PV_FP8


def test_gluon_shared_memory_counts_the_ring_q_p_and_the_flags():
    from generator.core.backends import gluon

    # the buffers' bytes; on sm90 the compiled kernels take 272 and 280 more, their barriers
    # and alignment (85,392 and 122,264 bytes in build/h200/resources.json)
    one = {"num_stages": 2, "kv_format": "fp8", "consumers": 1}
    p_and_flags = 2 * 16 * 64 + 2 * 64
    assert gluon.smem_bytes(one) == 2 * 64 * 576 + 16 * 576 + p_and_flags == 85392 - 272
    assert gluon.smem_bytes({**one, "num_stages": 3}) == 122264 - 280
    # consumers 2: a ring and a P per warpgroup, the second's 8 parts (512 x 16 fp32), its max and sums
    assert gluon.smem_bytes({**one, "consumers": 2}) - gluon.smem_bytes(one) == \
        2 * 64 * 576 + p_and_flags + (512 * 16 + 2 * 16) * 4


def test_gluon_two_consumers_reach_the_kernel_and_the_summary():
    plan = plan_of("  - {batch: 64, kv_len: 8192, backend: gluon, splits: 2, consumers: 2}\n"
                   "  - {batch: 256, kv_len: 8192, backend: gluon, splits: 1}")
    two, one = plan.runners
    assert consts(two.launches[0])["CONSUMERS"] == 2 and "2 consumer warpgroups" in two.summary
    assert consts(one.launches[0])["CONSUMERS"] == 1 and "consumer" not in one.summary


@pytest.mark.parametrize("extra, field", [
    ("consumers: 2", "consumers"), ("dv_split: 2", "dv_split"), ("early_refill: true", "early_refill"),
    ("partials: fp16", "partials"),
])
def test_gluon_mxfp4_takes_one_consumer_one_program_a_split_and_fp32_partials(extra, field):
    from generator.errors import SpecError

    with pytest.raises(SpecError) as err:
        plan_of(f"  - {{batch: 4, kv_len: 8192, backend: gluon, splits: 32, kv_format: mxfp4, {extra}}}")
    assert f"shapes[0].{field}" in str(err.value)
