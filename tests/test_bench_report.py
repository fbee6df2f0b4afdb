"""The bench's pure parts: statistics, byte counts, regression comparison.
(Timing itself needs a GPU: `gen bench` on the H200, recorded in PERF.md.)"""

import json

from generator.core.contract import KV_ROW_BYTES
from generator.gpu.bench import compare, summarize

from conftest import ROOT


def test_summary_statistics():
    t = summarize([10.0, 12.0, 10.0, 12.0])
    assert (t.mean_us, t.median_us, t.min_us, t.runs) == (11.0, 11.0, 10.0, 4)
    assert t.drift == 0.0 and t.sem_us > 0
    assert summarize([10.0, 10.0, 20.0, 20.0]).drift == 10.0 / 15.0


def test_bytes_per_kv_row_by_format():
    assert KV_ROW_BYTES == {"fp8": 576, "bf16": 1152, "mxfp4": 306}


def _result(means, sem=0.05, drift=0.0):
    return {"rows": [{"shape": s, "queued": {"mean_us": m, "sem_us": sem, "drift": drift}}
                     for s, m in means.items()]}


def test_compare_flags_changes_beyond_noise_only():
    old = _result({"a": 100.0, "b": 100.0, "c": 100.0})
    new = _result({"a": 100.1, "b": 110.0, "c": 90.0})
    lines = dict(line.split(": ", 1) for line in compare(new, old))
    assert lines["a"].endswith("same (within noise)")
    assert lines["b"].endswith("REGRESSION")
    assert lines["c"].endswith("improvement")


def test_compare_widens_noise_with_measured_drift():
    old = _result({"a": 100.0}, drift=0.08)
    new = _result({"a": 105.0}, drift=0.01)
    assert compare(new, old)[0].endswith("same (within noise)")


def test_recorded_h200_run_has_every_field_the_report_needs():
    run = json.loads((ROOT / "perf/h200-2026-11-30.json").read_text())
    assert run["device"] == "NVIDIA H200" and len(run["rows"]) == 8
    for key in ("commit", "spec_hash", "torch", "triton", "hbm_copy_gbps", "geomean_us"):
        assert run[key]
    assert compare(run, run) and all(line.endswith("same (within noise)") for line in compare(run, run))
