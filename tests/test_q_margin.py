"""fp8_static Q clips |q| above q_absmax: `gen check` shows the margin (max |q|
over q_absmax, the clipped fraction) and runs each static-Q entry on a scaled q;
inputs far past the scale fail the leaderboard rule visibly."""

import dataclasses
import functools

from generator.gpu.check import Q_MARGIN_GAIN, check_case, prepare, select_cases

from conftest import ROOT

SPEC = ROOT / "tests/specs/cpu_coverage.yaml"


@functools.cache
def prepared():
    return prepare(SPEC, interpret=True)


def margin_cases():
    spec, plan, _, _ = prepared()
    return [c for c in select_cases(spec, plan, (), small=True) if "q-margin" in c.tags]


def test_every_static_q_entry_has_a_scaled_q_case():
    spec, plan, _, _ = prepared()
    static = [r.tag for r in plan.runners if r.q_mode == "fp8_static"]
    assert static and [c.name for c in margin_cases()] == [f"{t}-q2x" for t in static]
    assert all(c.q_gain == Q_MARGIN_GAIN for c in margin_cases())


def test_table_reports_the_margin_and_the_clipped_fraction():
    spec, plan, module, _ = prepared()
    case = margin_cases()[0]
    base = dataclasses.replace(case, q_gain=1.0, tags=())
    normal = check_case(module, spec, plan, base, seed=3, device="cpu")
    assert normal.ok and normal.q_clipped == 0 and 0.3 < normal.q_absmax_ratio < 1
    scaled = check_case(module, spec, plan, case, seed=3, device="cpu")
    assert scaled.q_absmax_ratio > 1 and scaled.q_clipped > 0
    assert "q clipped:" in scaled.note and "above q_absmax 6" in scaled.note
    assert scaled.ok, scaled  # twice the task's q still passes


def test_q_far_past_the_static_scale_fails_the_check():
    spec, plan, module, _ = prepared()
    case = dataclasses.replace(margin_cases()[0], q_gain=4.0)
    result = check_case(module, spec, plan, case, seed=3, device="cpu")
    assert not result.ok and "leaderboard rule" in result.note, result
