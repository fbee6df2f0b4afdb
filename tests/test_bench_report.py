"""The bench's pure parts: statistics, byte counts, regression comparison.
(Timing itself needs a GPU: `gen bench` on the H200, recorded in PERF.md.)"""

import json

from generator.core.contract import KV_ROW_BYTES
from generator.gpu.baselines import flashinfer_available
from generator.gpu.bench import print_report, summarize
from generator.results.compare import compare

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
    run = json.loads((ROOT / "tests/data/runs/h200_bench.json").read_text())
    assert run["device"] == "NVIDIA H200" and len(run["rows"]) == 8
    for key in ("commit", "spec_hash", "torch", "triton", "hbm_copy_gbps", "geomean_us"):
        assert run[key]
    assert compare(run, run) and all(line.endswith("same (within noise)") for line in compare(run, run))


def _row(shape, mean, baselines):
    timing = {"mean_us": mean, "median_us": mean, "min_us": mean, "runs": 10, "sem_us": 0.1,
              "drift": 0.0}
    return {"shape": shape, "backend": "gluon", "kv_format": "fp8", "queued": timing,
            "idle": timing, "gbps": 1.0, "pct_hbm": 50.0, "floor_us": mean / 2, "over_floor": 2.0,
            "baselines_us": baselines, "baselines_rel_err": {}, "lb_fail_fraction": 0.0}


def test_report_shows_each_baseline_and_the_speedup_over_it(capsys):
    result = {"spec": "s.yaml", "device": "GPU", "mode": "benchmark",
              "rows": [_row("b4_kv1024", 10.0, {"torch": 30.0, "flashinfer": 12.5}),
                       _row("b256_kv8192", 400.0, {"torch": 1400.0})],
              "geomean_us": 63.2, "geomean_idle_us": 70.0, "geomean_floor_us": 31.6,
              "geomean_baselines_us": {"torch": 205.0, "flashinfer": 12.5},
              "baselines_not_run": {}, "hbm_copy_gbps": 4296.0, "empty_launch_us": 3.1,
              "commit": "abc", "not_run": []}
    print_report(result)
    out = capsys.readouterr().out
    assert "flashinfer us" in out and "x flashinfer" in out
    assert "1.25x" in out and "3.00x" in out and "3.50x" in out
    assert "flashinfer 12.50 us" in out


def test_flashinfer_reports_why_it_cannot_run_without_the_extra():
    why = flashinfer_available()
    try:
        import flashinfer  # noqa: F401
    except ImportError:
        assert why and "flashinfer" in why.lower()


def test_host_time_per_call_issues_calls_back_to_back_and_syncs_only_between_samples():
    """gen bench's host figure: calls issued without waiting for the device (a
    sync would add the GPU's time), the device waited for only outside the
    timed spans, the mean per call over the samples."""
    import time

    from generator.gpu.bench import host_us_per_call

    log = []

    def call():
        log.append("c")
        time.sleep(0.0002)

    timing = host_us_per_call(call, lambda: log.append("s"), calls=5, samples=4, warmup=2)
    assert "".join(log) == "cc" + "s" + ("ccccc" + "s") * 4
    assert timing.runs == 4 and 200 <= timing.min_us <= timing.mean_us < 5000


def test_report_shows_host_time_per_call(capsys):
    host = {"mean_us": 41.5, "median_us": 41.0, "min_us": 40.0, "runs": 20, "sem_us": 0.2,
            "drift": 0.0}
    row = {**_row("b4_kv1024", 10.0, {}), "host": host}
    old = _row("b32_kv1024", 20.0, {})  # a JSON from before the host figure
    result = {"spec": "s.yaml", "device": "GPU", "mode": "benchmark", "rows": [row, old],
              "geomean_us": 14.1, "geomean_idle_us": 20.0, "geomean_host_us": 41.5,
              "geomean_floor_us": 7.0, "geomean_baselines_us": {}, "baselines_not_run": {},
              "hbm_copy_gbps": 4296.0, "empty_launch_us": 3.1, "commit": "abc", "not_run": []}
    print_report(result)
    out = capsys.readouterr().out
    assert "host us" in out and "41.50" in out and "host 41.50 us a call" in out


def test_bench_times_the_build_on_every_shape_before_any_baseline():
    """A baseline changes the process it runs in (FlashInfer's import and run
    doubled the build's host cost per call after it), so gen bench times the
    build on all shapes first and still reports each shape's figures together."""
    from generator.gpu.bench import build_first

    log = []

    def time_build(i, case):
        log.append(f"build {case}")
        return f"ours {case}"

    def time_baselines(i, case):
        log.append(f"baselines {case}")
        return f"theirs {case}"

    rows = list(build_first(["a", "b", "c"], time_build, time_baselines))
    assert log == ["build a", "build b", "build c", "baselines a", "baselines b", "baselines c"]
    assert rows == [((0, "a"), "ours a", "theirs a"), ((1, "b"), "ours b", "theirs b"),
                    ((2, "c"), "ours c", "theirs c")]


def test_a_result_names_its_commit_and_says_when_the_tree_differs(tmp_path, monkeypatch):
    """gen bench's "commit": HEAD, with "+changes" while a tracked file differs
    from it (the build measured is then not the commit's); untracked files do
    not count; GEN_COMMIT overrides; outside a repository "unknown"."""
    import subprocess

    from generator.gpu.bench import git_commit

    monkeypatch.delenv("GEN_COMMIT", raising=False)
    monkeypatch.chdir(tmp_path)
    assert git_commit() == "unknown"
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"]
    subprocess.run([*git, "init", "-q"], check=True)
    (tmp_path / "spec.yaml").write_text("a: 1\n")
    subprocess.run([*git, "add", "spec.yaml"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "x"], check=True)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    (tmp_path / "notes.txt").write_text("untracked\n")
    assert git_commit() == head
    (tmp_path / "spec.yaml").write_text("a: 2\n")
    assert git_commit() == head + "+changes"
    monkeypatch.setenv("GEN_COMMIT", "abc1234")
    assert git_commit() == "abc1234"
