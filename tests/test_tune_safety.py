"""`gen tune` cannot damage a spec: records are evidence, never orders (a
forged or broken line decides nothing and is named file:line); --interpret
and machines of another platform never rewrite a spec; the resource gate
runs in every mode; records stay outside the checkout by default; every path
is checked before anything is measured; a rewritten spec keeps its link and
its mode. The device side is faked (tests/tune_fakes.py): a GPU machine where
the write-back rules need one, timings by split count."""

import json
import math
import os
import stat
import types

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.core.spec import load_spec
from generator.errors import UserError
from generator.tune import measure
from generator.tune import records as rec
from generator.tune import writeback
from generator.tune.records import Records
from generator.tune.space import candidates, space_for
from generator.tune.tune import make_record, prepare, run_tune

from tune_fakes import (H200, SMALL, copy_small, inject, ok, options, pid_logging_job, timed,
                        use_gpu)


@pytest.fixture
def spec_copy(tmp_path):
    return copy_small(tmp_path)


def never(job):
    raise AssertionError("measured")


def forge(spec_path, records_path, outcomes, fp=H200):
    """Write records for b3_kv256's candidates (by split count) as a GPU run
    with fingerprint fp would key them: what a pull request could plant."""
    original = load_spec(spec_path)
    shape = original.shapes[0]
    opts = options(records_path.parent, interpret=False)
    lines = []
    for cand in candidates(shape, space_for(shape, 0, "b3_kv256", "cuda"), "cuda"):
        splits = cand.as_dict()["splits"]
        if splits in outcomes:
            p = prepare(cand, original, "cuda", fp, opts, None)
            lines.append({"format": 1, **make_record(p, original, fp, opts, outcomes[splits])})
    with open(records_path, "a", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")


def failed(reason="check: strict error 5.00e-01 > 1e-02"):
    return {"status": "failed", "reason": reason}


# ---------------------------------------------------------------------------
# Records are evidence, not orders
# ---------------------------------------------------------------------------


def test_forged_records_cannot_rewrite_a_spec(spec_copy, tmp_path, monkeypatch):
    use_gpu(monkeypatch)
    before = spec_copy.read_bytes()
    # The planted lines: the entry at 100 us, a candidate at 1 us.
    forge(spec_copy, tmp_path / "records.jsonl", {3: ok(100.0), 2: ok(1.0), 4: ok(100.0)})
    measured = []
    decisions = run_tune(spec_copy, shapes=("b3_kv256",), opts=options(tmp_path, interpret=False),
                         job_fn=timed({3: 100.0, 2: 100.0, 4: 100.0}, measured))
    assert measured == [3, 2]  # the entry and the would-be winner, measured again here
    assert not decisions[0].replace and "re-measured" in decisions[0].why
    assert spec_copy.read_bytes() == before
    confirmations = [r for r in Records(tmp_path / "records.jsonl").lines if r["confirmation"]]
    assert [r["fields"]["splits"] for r in confirmations] == [3, 2]


def test_true_records_spare_the_losers_and_the_winner_is_confirmed(spec_copy, tmp_path,
                                                                   monkeypatch):
    use_gpu(monkeypatch)
    forge(spec_copy, tmp_path / "records.jsonl", {3: ok(100.0), 2: ok(60.0), 4: ok(90.0)})
    measured = []
    decisions = run_tune(spec_copy, shapes=("b3_kv256",), opts=options(tmp_path, interpret=False),
                         job_fn=timed({3: 100.0, 2: 60.0, 4: 90.0}, measured))
    assert measured == [3, 2]  # splits 4 lost in the records: not measured again
    assert decisions[0].replace and load_spec(spec_copy).shapes[0].splits == 2


def test_a_forged_failure_of_the_entry_does_not_hand_over_the_spec(spec_copy, tmp_path,
                                                                   monkeypatch):
    use_gpu(monkeypatch)
    before = spec_copy.read_bytes()
    forge(spec_copy, tmp_path / "records.jsonl", {3: failed(), 2: ok(100.0), 4: failed()})
    decisions = run_tune(spec_copy, shapes=("b3_kv256",), opts=options(tmp_path, interpret=False),
                         job_fn=timed({3: 50.0, 2: 100.0, 4: 10.0}))
    assert not decisions[0].replace and "current entry is fastest" in decisions[0].why
    assert spec_copy.read_bytes() == before


def test_a_forged_pass_of_a_failing_candidate_is_caught_when_measured_again(spec_copy, tmp_path,
                                                                            monkeypatch):
    use_gpu(monkeypatch)
    before = spec_copy.read_bytes()
    forge(spec_copy, tmp_path / "records.jsonl", {3: ok(100.0), 2: ok(1.0), 4: ok(100.0)})

    def two_fails(job):
        return failed() if job.spec.shapes[0].splits == 2 else ok(100.0)

    decisions = run_tune(spec_copy, shapes=("b3_kv256",), opts=options(tmp_path, interpret=False),
                         job_fn=two_fails)
    assert not decisions[0].replace and "no other candidate passed" in decisions[0].why
    assert spec_copy.read_bytes() == before


def test_a_forged_pass_of_a_candidate_that_never_runs_decides_nothing(spec_copy, tmp_path,
                                                                     monkeypatch):
    # gluon takes only fp8 KV: the spec stage rejects (gluon, bf16), so no job
    # can measure it again; a planted "ok" record for it must not win.
    use_gpu(monkeypatch)
    spec_copy.write_text(spec_copy.read_text().replace(
        "  - {batch: 4, kv_len: 1024, backend: gluon, splits: 16}",
        "  - {batch: 4, kv_len: 1024, backend: triton_split, splits: 4, "
        "tune: {backend: [triton_split, gluon], kv_format: [bf16]}}"))
    before = spec_copy.read_bytes()
    original = load_spec(spec_copy)
    opts = options(tmp_path, interpret=False)
    shape = original.shapes[1]
    lines = []
    for cand in candidates(shape, space_for(shape, 1, "b4_kv1024", "cuda"), "cuda"):
        p = prepare(cand, original, "cuda", H200, opts, None)
        outcome = ok(1.0) if p.job is None else ok(100.0)
        lines.append(json.dumps({"format": 1, **make_record(p, original, H200, opts, outcome)}))
    (tmp_path / "records.jsonl").write_text("\n".join(lines) + "\n")
    decisions = run_tune(spec_copy, shapes=("b4_kv1024",), opts=opts, job_fn=timed({}))
    assert not decisions[0].replace and "a record is no proof" in decisions[0].why
    assert spec_copy.read_bytes() == before


def test_past_the_time_limit_a_winner_in_the_records_waits_for_the_next_run(
        spec_copy, tmp_path, monkeypatch):
    use_gpu(monkeypatch)
    before = spec_copy.read_bytes()
    forge(spec_copy, tmp_path / "records.jsonl", {3: ok(100.0), 2: ok(50.0), 4: ok(100.0)})
    opts = options(tmp_path, interpret=False, max_minutes=1e-9)  # over before it starts
    decisions = run_tune(spec_copy, shapes=("b3_kv256",), opts=opts, job_fn=never)
    assert not decisions[0].replace
    assert decisions[0].why == "not re-measured (time limit): run again to confirm"
    assert spec_copy.read_bytes() == before


def test_the_re_measurement_runs_in_this_process_even_with_workers(spec_copy, tmp_path,
                                                                   monkeypatch):
    log = tmp_path / "pids.log"
    monkeypatch.setenv("TUNE_TEST_LOG", str(log))
    decisions = run_tune(spec_copy, opts=options(tmp_path, gpus=2), job_fn=pid_logging_job)
    assert decisions[0].replace  # 50 us against the entry's 100 (not written: --interpret)
    rows = [line.split() for line in log.read_text().splitlines()]
    me = str(os.getpid())
    search, again = rows[:3], rows[3:]
    assert all(pid != me for pid, _ in search)  # the search: in the worker processes
    assert [pid for pid, _ in again] == [me, me]  # the re-measurement: here, entry first
    assert again[0][1] == "3" and again[1][1] in ("2", "4")


@pytest.mark.parametrize("value, shown", [("NaN", "nan"), ("Infinity", "inf"),
                                          ("-Infinity", "-inf"), ("0", "0"), ("-3.5", "-3.5"),
                                          ('"7"', "'7'")])
def test_a_record_time_that_is_not_finite_and_positive_is_a_user_error(spec_copy, tmp_path,
                                                                       value, shown):
    records = tmp_path / "records.jsonl"
    forge(spec_copy, records, {3: ok(100.0), 2: ok(12345.0)})
    records.write_text(records.read_text().replace("12345.0", value, 1))
    result = CliRunner().invoke(main, ["tune", "--spec", str(spec_copy), "--interpret",
                                       "--records", str(records)])
    assert result.exit_code == 2, result.output
    assert (f"{records}:2: timing.mean_us: {shown} is not a finite positive time; not a record "
            "gen tune writes" in " ".join(result.output.split()))
    assert "internal error" not in result.output


@pytest.mark.parametrize("line, problem", [
    ('{"format": 1}', "kernel_sha256: None is not a string"),
    ("[1, 2]", "list where a record (a JSON object) belongs"),
    ('{"format": "1"}', "format: '1' is not 1"),
    ("status", None),  # replaced below: an unknown status
    ("runs", None),  # replaced below: zero runs
    ("sem", None),  # replaced below: a negative standard error
])
def test_malformed_record_lines_are_user_errors_naming_file_and_line(spec_copy, tmp_path, line,
                                                                     problem):
    path = tmp_path / "r.jsonl"
    forge(spec_copy, path, {3: ok(100.0)})
    good = json.loads(path.read_text())
    if line == "status":
        line, problem = json.dumps(dict(good, status="great")), "status: 'great' is not one of ok"
    elif line == "runs":
        line = json.dumps(dict(good, timing=dict(good["timing"], runs=0)))
        problem = "timing.runs: 0 is not a whole number >= 1"
    elif line == "sem":
        line = json.dumps(dict(good, timing=dict(good["timing"], sem_us=-1.0)))
        problem = "timing.sem_us: -1.0 is not a finite number >= 0"
    path.write_text(json.dumps(good) + "\n" + line + "\n" + json.dumps(good) + "\n")
    with pytest.raises(UserError) as err:
        Records(path)
    assert str(err.value).startswith(f"{path}:2: {problem}")
    assert "remove the line, or pass another --records" in str(err.value)


def test_a_records_path_that_is_a_folder_is_a_user_error(tmp_path):
    (tmp_path / "a-folder").mkdir()
    with pytest.raises(UserError, match=r"a-folder: cannot read the records \(Is a directory\)"):
        Records(tmp_path / "a-folder")


def test_lines_that_are_not_json_are_named_passed_over_and_measured_again(spec_copy, tmp_path,
                                                                          monkeypatch, capsys):
    use_gpu(monkeypatch)
    path = tmp_path / "records.jsonl"
    forge(spec_copy, path, {3: ok(100.0), 2: ok(90.0), 4: ok(100.0)})
    first, second, third = path.read_text().splitlines()
    path.write_bytes(f"{first}\n\xff\xfe not text\n{third}\n{second[:40]}".encode("latin-1"))
    records = Records(path)  # a crash cut the last line short; line 2 is not UTF-8
    assert [r["fields"]["splits"] for r in records.lines] == [3, 4]
    assert records.passed_over == [2, 4]
    measured = []
    run_tune(spec_copy, shapes=("b3_kv256",), opts=options(tmp_path, interpret=False),
             job_fn=timed({3: 100.0, 2: 100.0, 4: 100.0}, measured))
    assert measured == [2]  # the candidate whose line was cut short
    out = capsys.readouterr().out
    assert f"note: {path}:2: not a JSON line (a write cut short?): passed over" in out
    # The new record started a line of its own: the file reads back whole.
    again = Records(path)
    assert [r["fields"]["splits"] for r in again.lines] == [3, 4, 2] and again.passed_over == [2, 4]


def test_a_clock_that_returns_nan_fails_its_candidate_and_the_real_winner_wins(
        spec_copy, tmp_path, monkeypatch):
    inject(monkeypatch, {3: 100.0, 2: math.nan, 4: 50.0})
    decisions = run_tune(spec_copy, opts=options(tmp_path))
    assert decisions[0].replace and decisions[0].best_candidate.as_dict()["splits"] == 4
    by_splits = {r["fields"]["splits"]: r for r in Records(tmp_path / "records.jsonl").lines}
    assert by_splits[2]["status"] == "failed"
    assert by_splits[2]["reason"] == "timing: timing.mean_us: nan is not a finite positive time"


# ---------------------------------------------------------------------------
# Who may rewrite a spec
# ---------------------------------------------------------------------------


def test_interpret_never_rewrites_a_spec_and_says_so(spec_copy, tmp_path, monkeypatch):
    inject(monkeypatch, {3: 100.0, 2: 10.0, 4: 120.0})
    before = spec_copy.read_bytes()
    result = CliRunner().invoke(main, ["tune", "--spec", str(spec_copy), "--interpret",
                                       "--records", str(tmp_path / "r.jsonl"),
                                       "--build-dir", str(tmp_path / "build")])
    assert result.exit_code == 0, result.output
    assert spec_copy.read_bytes() == before
    out = " ".join(result.output.split())
    assert "its times say nothing about a GPU, so it never rewrites a spec" in out
    assert "not rewritten" in out and "winner here for b3_kv256: [backend: triton_split, " \
                                      "splits: 2, block_n: 16, allow_spills: a CPU test " \
                                      "fixture]" in out


def test_the_resource_gate_runs_under_interpret_on_the_targets_own_build(spec_copy, tmp_path,
                                                                         monkeypatch):
    inject(monkeypatch, {3: 100.0, 2: 10.0, 4: 120.0})
    seen = []

    def gate(spec, source):
        seen.append(spec)
        splits = spec.shapes[0].splits
        return "mla_b3_kv256_split2_stage1 spills 39 registers" if splits == 2 else None

    monkeypatch.setattr(measure, "resource_verdict", gate)
    decisions = run_tune(spec_copy, opts=options(tmp_path))
    by_splits = {r["fields"]["splits"]: r for r in Records(tmp_path / "records.jsonl").lines}
    assert by_splits[2]["status"] == "filtered" and "spills 39" in by_splits[2]["reason"]
    assert not decisions[0].replace  # the spilling candidate was the only faster one
    # The shape as its target compiles it: the real key, not the interpreter's stand-in.
    assert {s.shapes[0].key[:2] for s in seen} == {(3, 256)}
    assert {s.target.platform for s in seen} == {"cuda"} and len(seen) == 3


def test_the_real_resource_gate_filters_a_spilling_candidate_under_interpret(tmp_path):
    """No fake: the resource report compiles the candidate for sm90 (ahead of
    time, no GPU) and refuses it, under --interpret too."""
    spec = tmp_path / "s.yaml"
    spec.write_text(SMALL.read_text().replace(', allow_spills: "a CPU test fixture"', ""))
    decisions = run_tune(spec, shapes=("b3_kv256",), opts=options(tmp_path, budget=1))
    (record,) = Records(tmp_path / "records.jsonl").lines
    assert record["status"] == "filtered" and not decisions[0].replace
    assert "mla_b3_kv256_split3_stage1 (entry b3_kv256) spills" in record["reason"]
    assert "registers on sm90" in record["reason"]


ROCM = (SMALL.read_text()
        .replace("name: tunecpu, platform: cuda", "name: tunerocm, platform: rocm")
        .replace("  - {batch: 4, kv_len: 1024, backend: gluon, splits: 16}\n", ""))


@pytest.mark.parametrize("spec_text, platform, arch, says", [
    (ROCM, "cuda", "sm90",
     "target 'tunerocm' is a rocm spec (gfx950) and this GPU is NVIDIA H200 (NVIDIA, sm90): "
     "only an AMD GPU may rewrite it"),
    (SMALL.read_text(), "rocm", "gfx950",
     "target 'tunecpu' is a cuda spec (sm90) and this GPU is NVIDIA H200 (AMD, gfx950): only an "
     "NVIDIA GPU may rewrite it"),
    (SMALL.read_text(), "cuda", "sm80",
     "target 'tunecpu' compiles for sm90 and this GPU is NVIDIA H200 (NVIDIA, sm80): only a sm90 "
     "GPU may rewrite it"),
], ids=["rocm-spec-on-h200", "cuda-spec-on-amd", "sm90-spec-on-sm80"])
def test_only_a_gpu_of_the_specs_own_platform_rewrites_it(tmp_path, monkeypatch, capsys,
                                                          spec_text, platform, arch, says):
    spec = tmp_path / "s.yaml"
    spec.write_text(spec_text)
    spec.chmod(0o444)  # never rewritten: need not be writable either
    use_gpu(monkeypatch, platform, arch)
    decisions = run_tune(spec, shapes=("b3_kv256",), opts=options(tmp_path, interpret=False),
                         job_fn=timed({3: 100.0, 2: 50.0, 4: 90.0}))
    assert decisions[0].replace  # the winner is still found and reported
    assert spec.read_text() == spec_text
    out = " ".join(capsys.readouterr().out.split())
    assert says in out and "winner here for b3_kv256" in out


def test_this_machine_reads_the_platform_and_architecture_torch_reports(monkeypatch):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 2)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda *a: "GPU")
    monkeypatch.setattr(rec, "_driver", lambda: "1.0")
    props = {0: types.SimpleNamespace(major=9, minor=0, gcnArchName="gfx950:sramecc+:xnack-"),
             1: types.SimpleNamespace(major=9, minor=0, gcnArchName="gfx950:sramecc+:xnack-")}
    monkeypatch.setattr(torch.cuda, "get_device_properties", lambda i: props[i])
    monkeypatch.setattr(torch.version, "hip", None)
    m = writeback.this_machine(False, 2)
    assert (m.platform, m.arch, m.interpret) == ("cuda", "sm90", False)
    monkeypatch.setattr(torch.version, "hip", "6.4")
    m = writeback.this_machine(False, 1)
    assert (m.platform, m.arch) == ("rocm", "gfx950")
    props[1] = types.SimpleNamespace(major=9, minor=4, gcnArchName="gfx942:sramecc+:xnack-")
    with pytest.raises(UserError, match=r"--gpus 2: these GPUs are of different kinds "
                                        r"\(gfx942, gfx950\)"):
        writeback.this_machine(False, 2)


# ---------------------------------------------------------------------------
# Paths: records outside the tree, every path checked first, links and modes kept
# ---------------------------------------------------------------------------


def test_records_default_to_the_user_cache_never_the_checkout(spec_copy, tmp_path, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    opts = options(tmp_path)
    opts = type(opts)(**{**opts.__dict__, "records_path": None})
    run_tune(spec_copy, opts=opts, job_fn=timed({3: 100.0, 2: 100.0, 4: 100.0}))
    assert len(Records(tmp_path / "cache/mla-gen/tune/tunecpu.jsonl").lines) == 3
    assert list(work.iterdir()) == []
    # Without XDG_CACHE_HOME (or with a relative one): ~/.cache.
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert rec.default_path("h200") == tmp_path / "home/.cache/mla-gen/tune/h200.jsonl"


def test_no_default_path_points_into_the_checkout(in_root):
    assert in_root not in rec.default_path("h200").resolve().parents


@pytest.mark.parametrize("option, where", [
    ("--records", "folder"), ("--records", "under-a-file"),
    ("--plot", "folder"), ("--plot", "under-a-file"), ("--plot", "pdf"),
])
def test_every_option_path_is_checked_before_anything_is_measured(spec_copy, tmp_path,
                                                                  option, where):
    (tmp_path / "a-file").write_text("x")
    (tmp_path / "a-folder").mkdir()
    path = {"folder": tmp_path / "a-folder", "under-a-file": tmp_path / "a-file/out.svg",
            "pdf": tmp_path / "x.pdf"}[where]
    records = path if option == "--records" else tmp_path / "r.jsonl"
    plot = path if option == "--plot" else None
    opts = options(tmp_path)
    opts = type(opts)(**{**opts.__dict__, "records_path": records, "plot_path": plot})
    with pytest.raises(UserError) as err:
        run_tune(spec_copy, opts=opts, job_fn=never)
    message = str(err.value)
    assert message.startswith(f"{option} {path}: ")
    assert {"folder": "is a folder", "under-a-file": "cannot write there",
            "pdf": "the extension picks the format: one of .png, .svg"}[where] in message
    assert not (tmp_path / "r.jsonl").exists()


def test_a_read_only_spec_fails_before_anything_is_measured(spec_copy, tmp_path, monkeypatch):
    use_gpu(monkeypatch)
    spec_copy.chmod(0o444)
    result = CliRunner().invoke(main, ["tune", "--spec", str(spec_copy), "--shapes", "b3_kv256",
                                       "--records", str(tmp_path / "r.jsonl")])
    assert result.exit_code == 2, result.output
    out = " ".join(result.output.split())
    assert f"{spec_copy}: read-only (mode 0444), and gen tune rewrites the spec it tunes" in out
    assert not (tmp_path / "r.jsonl").exists()
    # Under --interpret nothing is rewritten: a read-only spec is fine.
    monkeypatch.undo()
    run_tune(spec_copy, opts=options(tmp_path), job_fn=timed({3: 100.0, 2: 100.0, 4: 100.0}))


@pytest.mark.parametrize("mode", [0o600, 0o664, 0o640], ids=lambda m: f"{m:04o}")
def test_a_rewritten_spec_keeps_its_mode(spec_copy, tmp_path, monkeypatch, mode):
    use_gpu(monkeypatch)
    spec_copy.chmod(mode)
    run_tune(spec_copy, shapes=("b3_kv256",), opts=options(tmp_path, interpret=False),
             job_fn=timed({3: 100.0, 2: 50.0, 4: 90.0}))
    assert load_spec(spec_copy).shapes[0].splits == 2
    assert stat.S_IMODE(spec_copy.stat().st_mode) == mode


def test_a_symlinked_spec_is_written_through_its_link(tmp_path, monkeypatch):
    use_gpu(monkeypatch)
    (tmp_path / "real").mkdir()
    target = copy_small(tmp_path / "real")
    link = tmp_path / "link.yaml"
    link.symlink_to(os.path.relpath(target, tmp_path))
    run_tune(link, shapes=("b3_kv256",), opts=options(tmp_path, interpret=False),
             job_fn=timed({3: 100.0, 2: 50.0, 4: 90.0}))
    assert link.is_symlink() and os.readlink(link) == os.path.relpath(target, tmp_path)
    assert load_spec(target).shapes[0].splits == 2
    assert sorted(p.name for p in (tmp_path / "real").iterdir()) == ["tune_small.yaml"]


def test_with_several_specs_every_one_is_checked_before_the_first_is_measured(tmp_path,
                                                                              monkeypatch):
    from generator.tune import tune as tune_mod

    use_gpu(monkeypatch)
    first, second = copy_small(tmp_path, "a.yaml"), copy_small(tmp_path, "b.yaml")
    second.chmod(0o444)
    runs = []
    monkeypatch.setattr(tune_mod, "run_tune", lambda path, **kw: runs.append((path, kw)))
    args = ["tune", "--spec", str(first), "--spec", str(second), "--plot",
            str(tmp_path / "t.svg"), "--records", str(tmp_path / "r.jsonl")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and "b.yaml: read-only (mode 0444)" in result.output
    assert runs == []  # a.yaml was not measured first
    # Writable: each spec gets its own plot file (the second would overwrite the first).
    second.chmod(0o644)
    assert CliRunner().invoke(main, args).exit_code == 0
    assert [kw["opts"].plot_path.name for _, kw in runs] == ["t.a.svg", "t.b.svg"]
