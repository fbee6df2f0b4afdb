"""MXFP4 KV: what the interpreter can prove on a CPU.

tests/specs/mxfp4.yaml runs through test_kernels_interpret.py like every spec
(each MXFP4 runner also on non-uniform block scales and on the unpadded scale
layout handed over as torch's fp4x2 / e8m0 types). Here: that the coverage
spec covers every MXFP4 path (both backends' plans, both scale layouts), that the non-uniform cases really span the
e8m0 range they claim, that the strict rule fails kernels that read the
format wrongly, and the spec rules around it.
"""

import dataclasses

import pytest
import torch

from generator.core.planner import build_plan
from generator.core.render import render
from generator.core.spec import load_spec
from generator.gpu.check import MX_SPREAD, check_case, miniature, mxfp4_variants
from generator.gpu.harness import import_submission
from generator.gpu.inputs import make_inputs, uniform_case

from conftest import ROOT
from test_kernels_interpret import cases_of, prepared

MXFP4_SPEC = ROOT / "tests/specs/mxfp4.yaml"
MUTANTS = ROOT / "tests/specs/mutants_mxfp4.yaml"


def test_mxfp4_spec_covers_issue_9():
    spec, plan, _, dropped = prepared(MXFP4_SPEC)
    assert not dropped
    runners = list(plan.runners) + [plan.fallback]
    assert {r.kv_format for r in runners} == {"mxfp4"}
    assert {r.backend for r in runners} == {"triton_single", "triton_split"}
    assert {r.q_mode for r in runners} == {"bf16", "fp8_static"}
    assert {c.value for r in runners for l in r.launches for c in l.constexprs
            if c.name == "QK_SCALED"} == {True, False}
    assert {r.detail.merge for r in runners} == {"none", "kernel", "last_split"}
    names = [c.name for c in cases_of(MXFP4_SPEC)]
    assert {"uneven+empty", "q_seq_len4", "heads32", "q4+heads32", "uneven+empty-mx-scales",
            "uneven+empty-mx-unpadded"} <= set(names)
    for r in plan.runners:
        assert {f"{r.tag}-uneven-mx-scales", f"{r.tag}-uneven-mx-unpadded"} <= set(names)


def test_non_uniform_cases_span_the_e8m0_range():
    base = uniform_case("s", 2, 300)
    spread, unpadded = mxfp4_variants(base)
    _, kv_data, *_ = make_inputs(spread, 3, "cpu")
    packed, scales = kv_data["mxfp4"]
    used = scales[:600, :18]
    assert scales.shape == (768, 24)  # rows padded to 256, 24 columns
    assert used.min().item() == 0  # all-zero blocks
    nonzero = used[used > 0]
    # randn alone gives about 124..129; the spread moves it by MX_SPREAD
    assert nonzero.min().item() <= 127 - MX_SPREAD[0] + 2
    assert nonzero.max().item() >= 127 + MX_SPREAD[1] - 1
    _, kv_data, *_ = make_inputs(unpadded, 3, "cpu")
    packed, scales = kv_data["mxfp4"]
    assert scales.shape == (600, 18) and scales.dtype == torch.float8_e8m0fnu
    assert packed.dtype == torch.float4_e2m1fn_x2


# ---------------------------------------------------------------------------
# The strict rule fails kernels that read MXFP4 wrongly
# ---------------------------------------------------------------------------


def mutant(*pairs):
    spec = miniature(load_spec(MUTANTS))
    plan = build_plan(spec, interpret=True)
    source = render(plan, spec)
    for old, new in pairs:
        assert old in source
        source = source.replace(old, new)
    return spec, plan, import_submission(source)


def run(spec, plan, module, **kw):
    shape = spec.shapes[0]
    case = dataclasses.replace(uniform_case("m", shape.batch, shape.kv_len), **kw)
    return check_case(module, spec, plan, case, seed=7, device="cpu")


def test_unbroken_mxfp4_base_passes():
    spec, plan, module = mutant()
    assert run(spec, plan, module).ok
    assert run(spec, plan, module, mx_spread=MX_SPREAD, tags=("mx-scales",)).ok


def test_swapped_nibble_order_fails():
    spec, plan, module = mutant(("_mla_e2m1(packed & 15)", "SWAP"),
                                ("_mla_e2m1(packed >> 4)", "_mla_e2m1(packed & 15)"),
                                ("SWAP", "_mla_e2m1(packed >> 4)"))
    result = run(spec, plan, module)
    assert not result.ok and result.rel_err > 10 * result.bound


@pytest.mark.filterwarnings("ignore:invalid:RuntimeWarning")
@pytest.mark.parametrize("exponent", ["(sc.to(tl.int32) + 1) << 23", "(sc.to(tl.int32) - 1) << 23"])
def test_wrong_scale_exponent_fails(exponent):
    spec, plan, module = mutant(("(sc.to(tl.int32) << 23)", f"({exponent})"))
    result = run(spec, plan, module)
    # (e8m0 byte 0 minus one is no float at all: NaN counts as failing too)
    assert not result.ok and not result.rel_err <= 10 * result.bound


def test_assuming_unpadded_scale_rows_fails():
    spec, plan, module = mutant(("kv_scale.stride(0)", "18"))
    assert not run(spec, plan, module).ok  # the task's scale tensor has 24 columns
    assert run(spec, plan, module, mx_pad=(0, 0)).ok  # ...which 18 only matches unpadded


def test_one_scale_per_row_fails_only_on_non_uniform_scales():
    # every block read with the scale of the first block of its range
    spec, plan, module = mutant(("sc_rows[None, :] + offs_b[:, None] * stride_sc_c",
                                 "sc_rows[None, :] + FIRST_BLOCK * stride_sc_c + 0 * offs_b[:, None]"),
                                ("sc_rows[:, None] + offs_b[None, :] * stride_sc_c",
                                 "sc_rows[:, None] + FIRST_BLOCK * stride_sc_c + 0 * offs_b[None, :]"))
    result = run(spec, plan, module, mx_spread=MX_SPREAD, tags=("mx-scales",))
    assert not result.ok and result.rel_err > 10 * result.bound
