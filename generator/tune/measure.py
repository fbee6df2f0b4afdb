"""One candidate, measured: the stages `gen check` and `gen bench` use, in order.

Runs where the device is (a worker process per GPU, or this process): the
resource report's verdict (generator/tune/resource_gate.py) on the candidate
as its spec's target compiles it, in every mode (under --interpret too: the
interpreter's float32 build says nothing about registers), the build (plan,
render, import as `submission`, as generator/gpu/harness.py does), `gen
check`'s cases for the shape (fresh inputs, poisoned output, the strict bound
and the leaderboard rule, hot scores, unequal and empty segments, the Q-margin
case), then `gen bench`'s clock. The first stage that fails decides the
outcome and its reason; only a candidate that passes them all is timed, and
a timing that is not a finite positive number is a failure, not a result.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

from generator.core.planner import build_plan
from generator.core.render import render
from generator.core.spec import Spec
from generator.tune.records import FAILED, FILTERED, OK, timing_problem
from generator.tune.resource_gate import resource_verdict

# Seeds of the check cases and of the timed inputs: the same for every
# candidate, so that candidates are judged on the same inputs.
CHECK_SEED = 7
TIMING_SEED = 100


@dataclass(frozen=True)
class Job:
    """A candidate as this machine runs it."""

    tag: str  # the shape's tag in the spec
    spec: Spec  # one shape (the candidate) and the fallback, localized (miniature when interpreting)
    target_spec: Spec  # the same, as the spec's own target compiles it: what the gate judges
    interpret: bool
    seconds: float  # the clock's time budget


def _why(exc: BaseException) -> str:
    first = (str(exc).strip().splitlines() or [""])[0]
    return f"{type(exc).__name__}: {first}"[:300]


def check_candidate(module, spec: Spec, plan, device: str) -> list:
    """gen check's cases for the candidate's shape (not the fallback's): a list of check.Result."""
    from generator.gpu.check import check_case, shape_cases

    tag = plan.runners[0].tag
    cases = [case for t, case in shape_cases(spec, plan, small=device == "cpu") if t == tag]
    return [check_case(module, spec, plan, case, CHECK_SEED + 2 * i, device)
            for i, case in enumerate(cases)]


def measure(job: Job, clock) -> dict:
    """The outcome of one candidate: status, reason, and (when ok) its timing."""
    from generator.gpu.harness import import_submission
    from generator.gpu.inputs import make_inputs, uniform_case

    device = "cpu" if job.interpret else "cuda"
    try:
        verdict = resource_verdict(job.target_spec, render(build_plan(job.target_spec),
                                                           job.target_spec))
    except Exception as exc:  # noqa: BLE001 (a candidate its target cannot compile never runs)
        return {"status": FAILED, "reason": f"resource report: {_why(exc)}"}
    if verdict:
        return {"status": FILTERED, "reason": f"resource report: {verdict}"}
    plan = build_plan(job.spec, interpret=job.interpret)
    source = render(plan, job.spec)
    try:
        module = import_submission(source)
    except Exception as exc:  # noqa: BLE001 (a candidate that does not build scores infinite)
        return {"status": FAILED, "reason": f"build: {_why(exc)}"}
    try:
        results = check_candidate(module, job.spec, plan, device)
    except Exception as exc:  # noqa: BLE001 (compile errors surface at the first call)
        return {"status": FAILED, "reason": f"check: {_why(exc)}"}
    worst = max((r.rel_err for r in results), default=None)
    failed = [r for r in results if not r.ok]
    if failed:
        reason = "; ".join(f"{r.case}: {r.note}" for r in failed)
        return {"status": FAILED, "reason": f"check: {reason}"[:500], "rel_err": worst}
    runner = plan.runners[0]
    shape = job.spec.shapes[0]
    case = uniform_case(runner.tag, shape.batch, shape.kv_len, shape.q_seq_len, shape.num_heads)
    data = make_inputs(case, TIMING_SEED, device, job.spec.target.fp8_format)
    clock.max_seconds = job.seconds
    try:
        timing = clock.time(lambda: module.custom_kernel(data), idle=False)
    except Exception as exc:  # noqa: BLE001
        return {"status": FAILED, "reason": f"timing: {_why(exc)}", "rel_err": worst}
    timing = dataclasses.asdict(timing)
    problem = timing_problem(timing)
    if problem:  # a broken clock: never a result, let alone the best one
        return {"status": FAILED, "reason": f"timing: {problem}", "rel_err": worst}
    return {"status": OK, "reason": "", "rel_err": worst, "cases": len(results),
            "timing": timing}


# ---------------------------------------------------------------------------
# The clock of this process, made once (a GPU clock holds its L2-clear buffer)
# ---------------------------------------------------------------------------

_CLOCK = None


def process_clock(interpret: bool, seconds: float):
    global _CLOCK
    if _CLOCK is None:
        from generator.gpu import bench

        if interpret:
            _CLOCK = bench.HostClock("benchmark", seconds)
        else:
            _CLOCK = bench.Clock(bench.l2_clear_mib_for("benchmark", None), "benchmark", seconds)
    return _CLOCK


def run_job(job: Job) -> dict:
    """measure() with this process's clock, plus the wall time it took."""
    start = time.perf_counter()
    outcome = measure(job, process_clock(job.interpret, job.seconds))
    if not job.interpret:
        import torch

        torch.cuda.empty_cache()
    return {**outcome, "wall_s": round(time.perf_counter() - start, 3)}
