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


def test_gluon_barrier_merge_is_one_cooperative_launch_with_arrival_counters():
    plan = plan_of("  - {batch: 4, kv_len: 1024, backend: gluon, splits: 16, merge: barrier}\n"
                   "  - {batch: 8, kv_len: 1024, backend: gluon, splits: 16}\n"
                   "  - {batch: 256, kv_len: 1024, backend: gluon, splits: 1, merge: barrier}")
    barrier, kernel, one_pass = plan.runners
    (attend,) = barrier.launches
    c = consts(attend)
    assert c["MERGE_BARRIER"] is True and c["WRITE_PARTIAL"] is True and c["PDL_TRIGGER"] is False
    assert ("launch_cooperative_grid", True) in attend.options and attend.grid == (4, 16)
    assert barrier.detail.barrier and not barrier.detail.pdl
    counters = barrier.detail.buffers[-1]
    assert (counters.name, counters.shape, counters.dtype, counters.zeroed) == ("counters", (4,), "int64", True)
    assert "merged by the splits behind a barrier" in barrier.summary and "PDL merge" not in barrier.summary
    # the default: a merge kernel launched with PDL, no counters, an ordinary launch
    assert [l.family for l in kernel.launches] == ["attend", "merge"]
    assert consts(kernel.launches[0])["MERGE_BARRIER"] is False and kernel.detail.pdl
    assert all(o[0] != "launch_cooperative_grid" for o in kernel.launches[0].options)
    assert [b.name for b in kernel.detail.buffers] == ["part_o", "part_lse", "out"]
    # one split: nothing to merge, whatever the field says
    assert len(one_pass.launches) == 1 and consts(one_pass.launches[0])["MERGE_BARRIER"] is False
    assert not one_pass.detail.barrier


def test_gluon_speculation_guesses_the_keyed_kv_length_and_tma_tile_reaches_the_kernel():
    plan = plan_of("  - {batch: 4, kv_len: 1024, backend: gluon, splits: 16, speculate: true}\n"
                   "  - {batch: 256, kv_len: 8192, backend: gluon, splits: 1, tma_tile: false, stagger: true}")
    guessed, plain = plan.runners
    c = consts(guessed.launches[0])
    assert c["GUESS_KV_LEN"] == 1024 and c["TMA_TILE"] is True and guessed.detail.tma_tile
    assert c["STAGGER"] is False
    c = consts(plain.launches[0])
    assert c["GUESS_KV_LEN"] == 0 and c["TMA_TILE"] is False and not plain.detail.tma_tile
    assert c["STAGGER"] is True and "staggered" in plain.summary
    assert c["LAZY_RESCALE"] is False and consts(guessed.launches[0])["LAZY_RESCALE"] is False
    assert "speculative prologue" in guessed.summary and "TMA copies" not in plain.summary and "TMA copies" in guessed.summary


def test_gluon_lazy_rescale_reaches_the_kernel_and_the_summary():
    plan = plan_of("  - {batch: 256, kv_len: 8192, backend: gluon, splits: 1, lazy_rescale: true}")
    (r,) = plan.runners
    assert consts(r.launches[0])["LAZY_RESCALE"] is True and "lazy rescale" in r.summary


def test_gluon_lazy_rescale_counts_its_second_p_and_its_flags_per_warpgroup():
    from generator.core.backends import gluon

    # a second fp16 P (64 KV rows x 16 heads) and a byte a KV row of flags for two tiles, per
    # consumer warpgroup: on sm90 the compiled kernels take 2,176 bytes more (resources.json)
    cfg = {"num_stages": 2, "v_parts": 8, "v_buffers": 0, "kv_format": "fp8"}
    for consumers in (1, 2):
        plain = gluon.smem_bytes({**cfg, "consumers": consumers})
        assert gluon.smem_bytes({**cfg, "consumers": consumers, "lazy_rescale": True}) - plain == consumers * 2176


@pytest.mark.parametrize("entry, const, on_text, off_text", [
    ("{batch: 64, kv_len: 1024, backend: gluon, splits: 2, merge: barrier, early_refill: true}", "EARLY_REFILL",
     "refilled once V is in registers", "refilled"),
    ("{batch: 4, kv_len: 8192, backend: gluon, splits: 32, late_fill: true}", "LATE_FILL",
     "once the first tile is in", "first tile"),
    ("{batch: 32, kv_len: 8192, backend: gluon, splits: 4, v_lookahead: true}", "V_AHEAD",
     "V rows loaded a group ahead", "group ahead"),
    ("{batch: 4, kv_len: 8192, backend: gluon, splits: 32, merge: barrier, compact_lse: true}", "COMPACT_LSE",
     "log-sum-exps in one compact load", "compact load"),
    ("{batch: 32, kv_len: 1024, backend: gluon, splits: 4, v_row_pairs: true}", "V_PAIRS",
     "V rows paired before conversion", "paired"),
    ("{batch: 4, kv_len: 8192, backend: gluon, splits: 32, late_fill: true, q_fill: true}", "Q_FILL",
     "second tile once Q is in", "once Q is in"),
    ("{batch: 256, kv_len: 1024, backend: gluon, splits: 1, v_row_swap: true}", "V_SWAP",
     "V rows swapped in odd pairs", "swapped"),
    ("{batch: 4, kv_len: 8192, backend: gluon, splits: 32, merge: barrier, merge_poll: load}", "POLL_LOAD",
     "the merge's wait polled by acquire loads", "polled"),
], ids=["early_refill", "late_fill", "v_lookahead", "compact_lse", "v_row_pairs", "q_fill", "v_row_swap",
        "merge_poll"])
def test_gluon_switch_reaches_the_kernel_and_the_summary(entry, const, on_text, off_text):
    plan = plan_of(f"  - {entry}\n  - {{batch: 256, kv_len: 8192, backend: gluon, splits: 1}}")
    on, off = plan.runners
    assert consts(on.launches[0])[const] is True and on_text in on.summary
    assert consts(off.launches[0])[const] is False and off_text not in off.summary


def test_gluon_pv_format_fp8_reaches_the_kernel_the_summary_and_the_strict_bound():
    from generator.core import registry
    from generator.gpu.check import strict_bound

    plan = plan_of("  - {batch: 256, kv_len: 1024, backend: gluon, splits: 1, pv_format: fp8}\n"
                   "  - {batch: 256, kv_len: 8192, backend: gluon, splits: 1}")
    on, off = plan.runners
    assert consts(on.launches[0])["PV_FP8"] is True and "P rounded to e4m3" in on.summary
    assert consts(off.launches[0])["PV_FP8"] is False and "e4m3" not in off.summary
    # P rounded to fp8 is held to its own bound, not the backend's
    assert on.p_fp8 and not off.p_fp8
    assert strict_bound(on) == registry.STRICT_BOUND_PV_FP8
    assert strict_bound(off) == registry.BACKENDS["gluon"].strict_bound < registry.STRICT_BOUND_PV_FP8


def test_gluon_pv_format_fp8_halves_p_in_shared_memory():
    from generator.core.backends import gluon

    # P in e4m3: 64 KV rows x 16 heads, one byte each, two buffers with lazy_rescale; on sm90
    # the compiled kernels take 2,048 bytes less (resources.json)
    cfg = {"num_stages": 2, "v_parts": 8, "v_buffers": 0, "kv_format": "fp8", "lazy_rescale": True}
    assert gluon.smem_bytes(cfg) - gluon.smem_bytes({**cfg, "pv_format": "fp8"}) == 2048


def test_gluon_dv_split_doubles_the_grid_and_reaches_the_kernel_and_the_summary():
    plan = plan_of("  - {batch: 4, kv_len: 1024, backend: gluon, splits: 16, merge: barrier, dv_split: 2,"
                   " num_stages: 1, v_parts: 2, v_buffers: 1}\n"
                   "  - {batch: 4, kv_len: 8192, backend: gluon, splits: 32, merge: barrier}")
    split, whole = plan.runners
    (attend,) = split.launches
    assert attend.grid == (4, 32) and consts(attend)["DV_SPLIT"] == 2 and consts(attend)["NUM_SPLITS"] == 16
    assert "over 2 programs a split" in split.summary
    # the partials keep one slot per split, each program writing its half of the dims
    assert [b.shape for b in split.detail.buffers if b.name == "part_o"] == [(16, 4, 16, 512)]
    assert whole.launches[0].grid == (4, 32) and consts(whole.launches[0])["DV_SPLIT"] == 1
    assert "programs a split" not in whole.summary


def test_gluon_dv_split_takes_v_from_registers_with_fp8_pv():
    # each program of a split loads only its half's 4 chunks of V into the fp8 register operand
    plan = plan_of("  - {batch: 4, kv_len: 1024, backend: gluon, splits: 16, merge: barrier, dv_split: 2,"
                   " num_stages: 1, v_parts: 8, v_buffers: 0, pv_format: fp8}")
    (runner,) = plan.runners
    (attend,) = runner.launches
    c = consts(attend)
    assert attend.grid == (4, 32) and c["DV_SPLIT"] == 2 and c["V_BUFS"] == 0 and c["PV_FP8"] is True
    assert "over 2 programs a split" in runner.summary and "PV in fp8" in runner.summary
    assert runner.p_fp8 is True
    assert [b.shape for b in runner.detail.buffers if b.name == "part_o"] == [(16, 4, 16, 512)]


def test_gluon_v_early_reaches_the_kernel_and_the_summary():
    plan = plan_of("  - {batch: 64, kv_len: 1024, backend: gluon, splits: 2, merge: barrier, pv_format: fp8,"
                   " v_early: true}\n"
                   "  - {batch: 32, kv_len: 1024, backend: gluon, splits: 4, merge: barrier, pv_format: fp8}")
    early, plain = plan.runners
    assert consts(early.launches[0])["V_EARLY"] is True and "before the softmax" in early.summary
    assert consts(plain.launches[0])["V_EARLY"] is False and "before the softmax" not in plain.summary


def test_gluon_claim_tiles_reaches_the_kernel_the_counters_and_the_summary():
    plan = plan_of("  - {batch: 32, kv_len: 8192, backend: gluon, splits: 4, merge: barrier, consumers: 2,"
                   " claim_tiles: true}\n"
                   "  - {batch: 64, kv_len: 8192, backend: gluon, splits: 2, merge: barrier, consumers: 2}")
    claimed, fixed = plan.runners
    assert consts(claimed.launches[0])["CLAIM_TILES"] is True and "claimed at run time" in claimed.summary
    assert consts(fixed.launches[0])["CLAIM_TILES"] is False and "claimed" not in fixed.summary
    counters = {r.tag: [b.shape for b in r.detail.buffers if b.name == "counters"] for r in plan.runners}
    # the rows' barrier arrivals, then (claim_tiles) the rows' tile claims
    assert counters == {"b32_kv8192": [(64,)], "b64_kv8192": [(64,)]}
    # the grid and the partials are the fixed split's
    assert claimed.launches[0].grid == (32, 4)
    assert [b.shape for b in claimed.detail.buffers if b.name == "part_o"] == [(4, 32, 16, 512)]


def test_gluon_fp16_partials_reach_both_merges_the_buffer_and_the_summary():
    plan = plan_of("  - {batch: 4, kv_len: 8192, backend: gluon, splits: 32, merge: barrier, partials: fp16}\n"
                   "  - {batch: 32, kv_len: 8192, backend: gluon, splits: 4, partials: fp16}\n"
                   "  - {batch: 64, kv_len: 8192, backend: gluon, splits: 2}\n"
                   "  - {batch: 256, kv_len: 8192, backend: gluon, splits: 1, partials: fp16}")
    barrier, kernel, default, one_pass = plan.runners
    part_o = {r.tag: {b.name: b.dtype for b in r.detail.buffers}.get("part_o") for r in plan.runners}
    assert part_o == {"b4_kv8192": "float16", "b32_kv8192": "float16", "b64_kv8192": "float32",
                      "b256_kv8192": None}
    assert consts(barrier.launches[0])["PART_KV_UNITS"] is True and len(barrier.launches) == 1
    # the merge kernel applies the KV scale to fp16 partials
    assert consts(kernel.launches[0])["PART_KV_UNITS"] is True and consts(kernel.launches[1])["PART_KV_UNITS"] is True
    assert consts(default.launches[1])["PART_KV_UNITS"] is False and consts(default.launches[0])["PART_KV_UNITS"] is False
    # no partials to store: the field changes nothing
    assert consts(one_pass.launches[0])["PART_KV_UNITS"] is False and "partials" not in one_pass.summary
    assert "fp16 partials" in barrier.summary and "partials" not in default.summary


def test_gluon_fp8_partials_are_e4m3fn_in_kv_scale_units_and_need_an_e4m3fn_target():
    from generator.core import registry
    from generator.core.backends import gluon

    plan = plan_of("  - {batch: 4, kv_len: 8192, backend: gluon, splits: 32, merge: barrier, partials: fp8}\n"
                   "  - {batch: 32, kv_len: 8192, backend: gluon, splits: 4, partials: fp8}")
    barrier, kernel = plan.runners
    for runner in plan.runners:
        assert {b.name: b.dtype for b in runner.detail.buffers}["part_o"] == "float8_e4m3fn"
        assert all(consts(launch)["PART_KV_UNITS"] is True for launch in runner.launches)
        assert "fp8 partials" in runner.summary
    cfg = {**registry.BACKENDS["gluon"].defaults_for("cuda"), "partials": "fp8", "splits": 4}
    assert not [f for f, _ in gluon.field_rules(cfg, "e4m3fn") if f == "partials"]
    [(field, why)] = [(f, w) for f, w in gluon.field_rules(cfg, "e4m3fnuz") if f == "partials"]
    assert "e4m3fn" in why and "fp32, fp16" in why


def test_gluon_two_consumers_reach_the_kernel_the_summary_and_the_shared_memory():
    from generator.core.backends import gluon

    plan = plan_of("  - {batch: 64, kv_len: 8192, backend: gluon, splits: 2, merge: barrier, consumers: 2}\n"
                   "  - {batch: 256, kv_len: 8192, backend: gluon, splits: 1}")
    two, one = plan.runners
    assert consts(two.launches[0])["CONSUMERS"] == 2 and "2 consumer warpgroups" in two.summary
    assert consts(one.launches[0])["CONSUMERS"] == 1 and "consumer" not in one.summary
    # a ring and a P per warpgroup, the second's 8 parts (512 x 16 fp32) and its max and sums
    cfg = {"num_stages": 2, "v_parts": 8, "v_buffers": 0, "kv_format": "fp8"}
    alone = gluon.smem_bytes({**cfg, "consumers": 1})
    assert gluon.smem_bytes({**cfg, "consumers": 2}) - alone == 2 * 64 * 576 + 64 * 16 * 2 + (512 * 16 + 2 * 16) * 4
