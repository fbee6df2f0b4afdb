"""Stand-ins for gen tune's device side, shared by tests/test_tune*.py: a GPU
machine (so that the write-back rules can be exercised on a CPU), job
functions that return chosen timings, and measure.run_job without the resource
report's compile (most of a minute per candidate on a CPU; the gate has its
own tests)."""

from __future__ import annotations

import os
import shutil

from generator.gpu import bench
from generator.gpu.check import Result
from generator.tune import measure
from generator.tune import tune as tune_mod
from generator.tune.records import Fingerprint
from generator.tune.tune import Options
from generator.tune.writeback import Machine

from conftest import ROOT

SMALL = ROOT / "tests/specs/tune_small.yaml"
H200 = Fingerprint("NVIDIA H200", "550.54", "2.13.0", "3.6.0")


def copy_small(tmp_path, name="tune_small.yaml"):
    path = tmp_path / name
    shutil.copy(SMALL, path)
    return path


def options(tmp_path, interpret=True, **kw):
    return Options(interpret=interpret, seconds=0.2, records_path=tmp_path / "records.jsonl",
                   build_dir=tmp_path / "build", **kw)


def use_gpu(monkeypatch, platform="cuda", arch="sm90", fp=H200) -> Machine:
    """Make gen tune see one GPU of this platform and architecture."""
    machine = Machine(platform, arch, fp, False)
    monkeypatch.setattr(tune_mod, "this_machine", lambda interpret, gpus: machine)
    return machine


def splits_of(job):
    return job.spec.shapes[0].splits


def ok(mean, sem=None):
    return {"status": "ok", "reason": "", "rel_err": 1e-3, "wall_s": 0.0,
            "timing": {"mean_us": mean, "median_us": mean, "min_us": mean, "runs": 50,
                       "sem_us": mean * 1e-3 if sem is None else sem, "drift": 0.0}}


def timed(means, log=None):
    """A job function: the candidate's time by its split count; each measured
    split count is appended to log."""

    def job_fn(job):
        if log is not None:
            log.append(splits_of(job))
        return ok(means[splits_of(job)])

    return job_fn


def _no_verdict(spec, source):
    return None


def run_job_without_compiles(job):
    """measure.run_job with the resource report passing every candidate (a
    module-level function: worker processes import it by name)."""
    saved = measure.resource_verdict
    measure.resource_verdict = _no_verdict
    try:
        return measure.run_job(job)
    finally:
        measure.resource_verdict = saved


def pid_logging_job(job):
    """A job function for worker processes: logs 'pid splits' to the file
    $TUNE_TEST_LOG and times the candidate by its split count (3: 100 us, else 50 us)."""
    with open(os.environ["TUNE_TEST_LOG"], "a", encoding="utf-8") as f:
        f.write(f"{os.getpid()} {splits_of(job)}\n")
    return ok(100.0 if splits_of(job) == 3 else 50.0)


class FakeClock:
    """Times by split count (set by the fake check just before timing)."""

    def __init__(self, means):
        self.means, self.splits, self.max_seconds = means, None, 0

    def time(self, fn, idle=False):
        mean = self.means[self.splits]
        return bench.Timing(mean, mean, mean, 50, mean * 1e-3, 0.0)


def inject(monkeypatch, means, failing=()):
    """measure() runs for real (plan, render, build) with gen check's cases
    replaced: candidates whose split count is in `failing` fail a case."""
    clock = FakeClock(means)
    calls = []

    def fake_check(module, spec, plan, device):
        splits = spec.shapes[0].splits
        calls.append(splits)
        clock.splits = splits
        bad = splits in failing
        return [Result("b2_kv101-hot", "run_b2_kv101", "triton_split", "bf16", "fp8",
                       0.5 if bad else 1e-3, 1e-2, 0.0, 0.0, True, not bad,
                       "strict error 5.00e-01 > 1e-02 (injected)" if bad else "")]

    monkeypatch.setattr(measure, "check_candidate", fake_check)
    monkeypatch.setattr(measure, "process_clock", lambda interpret, seconds: clock)
    monkeypatch.setattr(measure, "resource_verdict", lambda spec, source: None)
    return calls
