"""`gen tune` on the CPU: its loop through Triton's interpreter (records written
and resumed, one worker per "GPU" as CPU processes), the spec stage in front
of every candidate, the noise rule, write-back that keeps comments, a failing
candidate that never wins, and an interrupted run that leaves the spec alone.
The rules that keep a spec safe (records as evidence, the write-back rules,
option paths) are in tests/test_tune_safety.py."""

import json

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.core.spec import load_spec, parse_spec
from generator.errors import SpecError, UserError
from generator.tune import measure
from generator.tune.records import Records
from generator.tune.space import candidates, space_for
from generator.tune.specedit import edit_entries
from generator.tune.tune import run_tune

from conftest import ROOT
from tune_fakes import (SMALL, copy_small, inject, ok, options, run_job_without_compiles,
                        splits_of, timed, use_gpu)


# The small spec without its entry's spill waiver (candidates print shorter).
UNWAIVED = SMALL.read_text().replace(', allow_spills: "a CPU test fixture"', "")


@pytest.fixture
def spec_copy(tmp_path):
    return copy_small(tmp_path)


def opts(tmp_path, **kw):
    return options(tmp_path, **kw)


# ---------------------------------------------------------------------------
# Spaces and candidates (no device)
# ---------------------------------------------------------------------------


def test_candidates_current_first_then_one_field_changes_then_the_product():
    spec = parse_spec(UNWAIVED.replace("tune: {splits: [2, 4]}",
                                       "tune: {splits: [2, 4], num_warps: [4, 8]}"), "x.yaml")
    shape = spec.shapes[0]
    space = space_for(shape, 0, "b3_kv256", "cuda")
    assert space.size == 4
    got = [str(c) for c in candidates(shape, space, "cuda")]
    assert got == [
        "backend: triton_split, splits: 3, block_n: 16",  # current
        "backend: triton_split, splits: 2, block_n: 16",
        "backend: triton_split, splits: 4, block_n: 16",
        # num_warps 4 is the cuda default and unset in the entry: not written
        "backend: triton_split, splits: 3, block_n: 16, num_warps: 8",
        "backend: triton_split, splits: 2, block_n: 16, num_warps: 8",
        "backend: triton_split, splits: 4, block_n: 16, num_warps: 8",
    ]


def test_two_field_changes_come_before_the_rest_of_the_product():
    spec = parse_spec(UNWAIVED.replace(
        "tune: {splits: [2, 4]}", "tune: {splits: [2], num_warps: [8], num_stages: [2]}"), "x.yaml")
    shape = spec.shapes[0]
    got = [str(c) for c in candidates(shape, space_for(shape, 0, "b3_kv256", "cuda"), "cuda")]
    assert got == [
        "backend: triton_split, splits: 3, block_n: 16",  # current
        # one field
        "backend: triton_split, splits: 2, block_n: 16",
        "backend: triton_split, splits: 3, block_n: 16, num_warps: 8",
        "backend: triton_split, splits: 3, block_n: 16, num_stages: 2",
        # two fields, pairs of axes in order
        "backend: triton_split, splits: 2, block_n: 16, num_warps: 8",
        "backend: triton_split, splits: 2, block_n: 16, num_stages: 2",
        "backend: triton_split, splits: 3, block_n: 16, num_warps: 8, num_stages: 2",
        # the rest of the product
        "backend: triton_split, splits: 2, block_n: 16, num_warps: 8, num_stages: 2",
    ]


def test_registry_space_without_tune_entry():
    spec = parse_spec("target: {name: h, platform: cuda, fp8_format: e4m3fn}\n"
                      "shapes:\n  - {batch: 4, kv_len: 1024, backend: gluon, splits: 16}\n"
                      "fallback: {backend: triton_split, splits: 8}\n", "h.yaml")
    space = space_for(spec.shapes[0], 0, "b4_kv1024", spec.target.platform)
    # gluon's search_space: num_stages 3 x early_refill 2 x v_early 2
    assert "registry" in space.origin and space.size == 3 * 2 * 2


def test_tune_entry_is_validated_against_the_backends_fields_and_values():
    text = SMALL.read_text().replace(
        "tune: {splits: [2, 4]}", "tune: {splits: [2, 300, x], blok_n: [16], num_warps: [3]}")
    with pytest.raises(SpecError) as err:
        parse_spec(text, "t.yaml")
    msg = str(err.value)
    assert "t.yaml:10: shapes[0].tune.splits[1]: 300 is not an integer from 1 to 256" in msg
    assert "shapes[0].tune.splits[2]: 'x' is not an integer" in msg
    assert "shapes[0].tune.blok_n: unknown key (did you mean 'block_n'?)" in msg
    assert "shapes[0].tune.num_warps[0]: 3 is not one of 1, 2, 4, 8, 16" in msg


def test_tune_does_not_change_the_generated_file():
    from generator.core.planner import build_plan
    from generator.core.render import render

    with_tune = parse_spec(SMALL.read_text(), "same.yaml")
    without = parse_spec(SMALL.read_text().replace(", tune: {splits: [2, 4]}", ""), "same.yaml")
    strip = lambda s: "\n".join(l for l in s.splitlines() if "inputs hash" not in l)  # noqa: E731
    assert strip(render(build_plan(with_tune), with_tune)) == strip(render(build_plan(without),
                                                                          without))


def test_edit_entries_keeps_comments_order_and_style():
    text = SMALL.read_text()
    new = edit_entries(text, {0: {"backend": "triton_split", "splits": 2, "block_n": 16,
                                  "num_warps": 8}})
    old_lines, new_lines = text.splitlines(), new.splitlines()
    changed = [i for i, (a, b) in enumerate(zip(old_lines, new_lines)) if a != b]
    assert len(old_lines) == len(new_lines) and len(changed) == 1
    entry, comment = new_lines[changed[0]].split(" #")
    assert entry.rstrip() == ("  - {batch: 3, kv_len: 256, backend: triton_split, splits: 2, "
                              "block_n: 16, tune: {splits: [2, 4]}, num_warps: 8}")
    assert comment == " keep me"  # a longer line moves its end-of-line comment, never drops it


def test_dry_run_prints_each_space_and_its_size(spec_copy):
    result = CliRunner().invoke(main, ["tune", "--spec", str(spec_copy), "--dry-run"])
    assert result.exit_code == 0, result.output
    assert "b3_kv256" in result.output and "splits: 2, 4" in result.output
    assert "│     12 │" in result.output  # gluon's registry space: 3 x 2 x 2


def test_unknown_shape_tag_is_a_user_error(spec_copy):
    result = CliRunner().invoke(main, ["tune", "--spec", str(spec_copy), "--shapes", "b9_kv9",
                                       "--dry-run"])
    assert result.exit_code == 2
    assert "--shapes b9_kv9: no such entry (valid: b3_kv256, b4_kv1024" in result.output


# ---------------------------------------------------------------------------
# The whole loop through the interpreter
# ---------------------------------------------------------------------------


def test_interpret_loop_with_two_workers_records_then_resumes(spec_copy, tmp_path):
    before = spec_copy.read_bytes()
    # Two CPU worker processes: the --gpus path, proven without a GPU.
    decisions = run_tune(spec_copy, opts=opts(tmp_path, gpus=2, plot_path=tmp_path / "t.svg"),
                         job_fn=run_job_without_compiles)
    records = Records(tmp_path / "records.jsonl").lines
    searched = [r for r in records if not r["confirmation"]]
    assert sorted(r["fields"]["splits"] for r in searched) == [2, 3, 4]
    for r in records:
        assert r["status"] == "ok", r
        assert r["shape"] == "b3_kv256" and r["device"] == "cpu (Triton interpreter)"
        assert r["timing"]["runs"] >= 3 and r["rel_err"] < 1e-2 and len(r["kernel_sha256"]) == 64
        assert {"driver", "torch", "triton"} <= set(r)
    assert (tmp_path / "t.svg").read_text().lstrip().startswith("<?xml")
    # The gluon entry cannot run here: said, never measured, kept.
    assert [d.tag for d in decisions] == ["b3_kv256", "b4_kv1024"]
    assert not decisions[1].replace
    assert spec_copy.read_bytes() == before  # --interpret never rewrites a spec

    # A second run measures no new candidate: at most a would-be winner and
    # the current entry again (records pick, they do not decide).
    again = []
    run_tune(spec_copy, opts=opts(tmp_path), job_fn=timed({2: 50.0, 3: 50.0, 4: 50.0}, again))
    lines = Records(tmp_path / "records.jsonl").lines
    assert len(again) in (0, 2) and len(lines) == len(records) + len(again)
    assert all(r["confirmation"] for r in lines[len(records):])


def test_adding_one_candidate_measures_only_it(spec_copy, tmp_path):
    measured = []
    run_tune(spec_copy, opts=opts(tmp_path), job_fn=timed({2: 100.0, 3: 100.0, 4: 100.0,
                                                            6: 100.0}, measured))
    assert sorted(measured) == [2, 3, 4]
    spec_copy.write_text(spec_copy.read_text().replace("splits: [2, 4]", "splits: [2, 4, 6]"))
    measured.clear()
    run_tune(spec_copy, opts=opts(tmp_path), job_fn=timed({2: 100.0, 3: 100.0, 4: 100.0,
                                                            6: 100.0}, measured))
    assert measured == [6]


# ---------------------------------------------------------------------------
# Decisions: the real measure() with an injected check and clock
# ---------------------------------------------------------------------------


def test_failing_candidate_never_wins(spec_copy, tmp_path, monkeypatch):
    # splits 4 would be fastest but fails a check case; splits 2 beats the entry.
    inject(monkeypatch, {3: 100.0, 2: 60.0, 4: 10.0}, failing={4})
    decisions = run_tune(spec_copy, opts=opts(tmp_path))
    assert decisions[0].replace and decisions[0].best_candidate.as_dict()["splits"] == 2
    assert "re-measured" in decisions[0].why
    failed = [r for r in Records(tmp_path / "records.jsonl").lines if r["status"] == "failed"]
    assert [r["fields"]["splits"] for r in failed] == [4]
    assert "injected" in failed[0]["reason"]


def test_write_back_keeps_comments_and_prints_both_diffs(spec_copy, tmp_path, monkeypatch,
                                                         capsys):
    use_gpu(monkeypatch)
    decisions = run_tune(spec_copy, shapes=("b3_kv256",), opts=opts(tmp_path, interpret=False),
                         job_fn=timed({3: 100.0, 2: 60.0, 4: 80.0}))
    assert decisions[0].replace and decisions[0].best_candidate.as_dict()["splits"] == 2
    text = spec_copy.read_text()
    assert load_spec(spec_copy).shapes[0].splits == 2
    assert text == SMALL.read_text().replace("splits: 3, block_n: 16", "splits: 2, block_n: 16")
    assert "# keep me" in text and "# Any other input." in text
    out = capsys.readouterr().out
    assert "-  - {batch: 3, kv_len: 256, backend: triton_split, splits: 3" in out  # spec diff
    assert "+  - {batch: 3, kv_len: 256, backend: triton_split, splits: 2" in out
    assert "b/" in out and "submission.py" in out  # gen build --diff of the generated file


def test_only_a_failing_candidate_is_faster_spec_unchanged(spec_copy, tmp_path, monkeypatch):
    inject(monkeypatch, {3: 100.0, 2: 150.0, 4: 10.0}, failing={4})
    before = spec_copy.read_bytes()
    decisions = run_tune(spec_copy, opts=opts(tmp_path))
    assert not decisions[0].replace and decisions[0].best_candidate.as_dict()["splits"] == 2
    assert spec_copy.read_bytes() == before


def test_a_gain_within_noise_keeps_the_entry(spec_copy, tmp_path, monkeypatch):
    # 1% faster: inside bench's run-to-run floor of 2%.
    inject(monkeypatch, {3: 100.0, 2: 99.0, 4: 120.0})
    before = spec_copy.read_bytes()
    decisions = run_tune(spec_copy, opts=opts(tmp_path))
    assert not decisions[0].replace and "within noise" in decisions[0].why
    assert spec_copy.read_bytes() == before


@pytest.mark.parametrize("error", [KeyboardInterrupt(), RuntimeError("worker died")])
def test_interrupted_run_leaves_spec_untouched_and_keeps_records(spec_copy, tmp_path, error,
                                                                 monkeypatch):
    use_gpu(monkeypatch)  # a run that may rewrite the spec
    before = spec_copy.read_bytes()
    calls = []

    def dies_on_second(job):
        calls.append(job)
        if len(calls) == 2:
            raise error
        return ok(100.0 if splits_of(job) == 3 else 10.0)  # any finished run would rewrite

    with pytest.raises(type(error)):
        run_tune(spec_copy, shapes=("b3_kv256",), opts=opts(tmp_path, interpret=False),
                 job_fn=dies_on_second)
    assert spec_copy.read_bytes() == before
    assert len(Records(tmp_path / "records.jsonl").lines) == 1  # the first candidate's


def test_a_candidate_that_raises_in_its_check_is_a_failure_not_a_crash(spec_copy, tmp_path,
                                                                       monkeypatch):
    inject(monkeypatch, {3: 100.0, 2: 10.0, 4: 10.0})
    real = measure.check_candidate

    def raises_for_two(module, spec, plan, device):
        if spec.shapes[0].splits == 2:
            raise RuntimeError("illegal memory access")
        return real(module, spec, plan, device)

    monkeypatch.setattr(measure, "check_candidate", raises_for_two)
    decisions = run_tune(spec_copy, opts=opts(tmp_path))
    assert decisions[0].best_candidate.as_dict()["splits"] == 4
    reasons = {r["fields"]["splits"]: r["reason"]
               for r in Records(tmp_path / "records.jsonl").lines}
    assert reasons[2] == "check: RuntimeError: illegal memory access"


def test_rejected_candidate_is_recorded_with_the_spec_message_and_never_built(spec_copy,
                                                                             tmp_path):
    # gluon takes only fp8 KV: the spec stage rejects (gluon, bf16); no job is made for it.
    spec_copy.write_text(spec_copy.read_text().replace(
        "  - {batch: 4, kv_len: 1024, backend: gluon, splits: 16}",
        "  - {batch: 4, kv_len: 1024, backend: triton_split, splits: 4, "
        "tune: {backend: [triton_split, gluon], kv_format: [bf16]}}"))
    seen = []
    run_tune(spec_copy, shapes=("b4_kv1024",), opts=opts(tmp_path),
             job_fn=lambda job: seen.append(job) or {"status": "failed", "reason": "x"})
    rejected = [r for r in Records(tmp_path / "records.jsonl").lines if r["status"] == "rejected"]
    assert rejected and "'bf16' is not a KV format of backend 'gluon'" in rejected[0]["reason"]
    assert all(job.spec.shapes[0].backend != "gluon" for job in seen)


def test_truncated_last_record_is_measured_again(tmp_path):
    path = tmp_path / "r.jsonl"
    good = {"format": 1, "kernel_sha256": "a", "shape": "s", "device": "d", "driver": "v",
            "torch": "t", "triton": "x", "status": "failed", "reason": "r"}
    path.write_text(json.dumps(good) + "\n" + json.dumps(good)[:20])
    records = Records(path)
    assert len(records.lines) == 1 and records.passed_over == [2]


# ---------------------------------------------------------------------------
# Plots
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("ext", ["png", "svg"])
def test_bench_plot_from_recorded_json(tmp_path, ext):
    pytest.importorskip("matplotlib")
    from generator.plot import plot_bench

    result = json.loads((ROOT / "tests/data/runs/h200_gluon_bench.json").read_text())
    out = plot_bench(result, tmp_path / f"bench.{ext}")
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG") if ext == "png" else b"<svg" in data
    if ext == "svg":
        text = data.decode()
        assert "b256_kv8192" in text and "% HBM" in text and "flashinfer" in text


def test_tune_plot_marks_failures_current_and_winner(tmp_path):
    pytest.importorskip("matplotlib")
    from generator.plot import plot_tune

    points = [{"label": "splits: 3", "status": "ok", "mean_us": 100.0, "sem_us": 1.0,
               "current": True, "winner": False},
              {"label": "splits: 2", "status": "ok", "mean_us": 60.0, "sem_us": 1.0,
               "current": False, "winner": True},
              {"label": "splits: 4", "status": "failed", "mean_us": None, "sem_us": None,
               "current": False, "winner": False}]
    text = plot_tune({"b3_kv256": points}, tmp_path / "tune.svg").read_text()
    for label in ("current entry", "best candidate", "failed / rejected / skipped", "b3_kv256"):
        assert label in text


def test_plot_extension_is_checked(tmp_path):
    from generator.plot import plot_tune

    with pytest.raises(UserError, match="one of .png, .svg"):
        plot_tune({"x": [{"mean_us": 1.0}]}, tmp_path / "t.jpg")


def test_resource_gate_filters_a_candidate_that_breaks_the_report_rules(monkeypatch):
    """The tuner's pre-GPU filter is the resource report's CI rule: a keyed
    kernel that spills without a waiver is refused, a clean one passes."""
    from generator.core.spec import load_spec
    from generator.resources import tune_gate
    from generator.tune.resource_gate import resource_verdict

    spec = load_spec(ROOT / "specs" / "h200.yaml")

    def report(kernels):
        return lambda *a, **k: {"spec": "specs/h200.yaml", "triton": "3.6.0", "arch": "sm90",
                                "kernels": kernels}

    row = {"kernel": "mla_b4_kv1024_gluon_split16", "key": [4, 1024, 1, 16], "keyed": True,
           "spilled_registers": 24, "local_bytes": 96, "spills": True, "wgmma_serialized": False}
    monkeypatch.setattr(tune_gate, "build_report", report([row]))
    verdict = resource_verdict(spec, "source")
    assert verdict and "mla_b4_kv1024_gluon_split16" in verdict
    clean = dict(row, spilled_registers=0, local_bytes=0, spills=False)
    monkeypatch.setattr(tune_gate, "build_report", report([clean]))
    assert resource_verdict(spec, "source") is None


@pytest.mark.parametrize("path", sorted((ROOT / "specs").glob("*.yaml")), ids=lambda p: p.stem)
def test_committed_specs_survive_the_round_trip_gen_tune_rewrites_them_with(path):
    from generator.tune.specedit import check_round_trip

    check_round_trip(path.read_text(), str(path))
