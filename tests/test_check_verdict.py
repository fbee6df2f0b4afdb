"""gen check's verdict: the same bits on every call (unless an entry declares
otherwise), the worst of several seeds against the bound and its margin, CUDA
graph replay (with fakes: only a GPU runs a graph), the summary per entry and
the exit codes, the JSON; and the spec's `deterministic` field."""

import contextlib
import dataclasses
import functools
import json
import shutil

import pytest
import torch
from click.testing import CliRunner

from generator.cli import main
from generator.core.planner import build_plan
from generator.core.spec import load_spec, parse_spec
from generator.gpu import check as check_mod
from generator.gpu import replay
from generator.gpu.check import check_case, prepare, strict_bound
from generator.gpu.check_report import (EXIT_FAILED, EXIT_OK, EXIT_UNRUNNABLE, FAILED, PASSED,
                                        UNRUNNABLE, Verdict, summarize)
from generator.gpu.inputs import uniform_case

from conftest import ROOT

MUTANTS = ROOT / "tests/specs/mutants.yaml"


@functools.cache
def built(path=MUTANTS):
    spec, plan, module, _ = prepare(path, interpret=True)
    return spec, plan, module


def keyed_case():
    spec, plan, module = built()
    shape = spec.shapes[0]
    return spec, plan, module, uniform_case("k", shape.batch, shape.kv_len)


class Wrapped:
    """A module whose custom_kernel is the real one, then `after(call number, output)`."""

    def __init__(self, module, after):
        self.module, self.after, self.calls = module, after, 0

    def custom_kernel(self, data):
        self.calls += 1
        return self.after(self.calls, self.module.custom_kernel(data))


def jitter(call, out):
    """Every other call, one element moved by one bf16 ulp: a race's signature."""
    if call % 2 == 0:
        out.view(torch.int16).view(-1)[7] += 1
    return out


# ---------------------------------------------------------------------------
# Deterministic by default
# ---------------------------------------------------------------------------


def test_a_runner_whose_bits_change_between_calls_fails():
    spec, plan, module, case = keyed_case()
    result = check_case(Wrapped(module, jitter), spec, plan, case, seed=3, device="cpu", repeats=4)
    assert (result.repeats, result.distinct_outputs) == (4, 2)
    assert 0 < result.repeat_max_diff < 0.1 and result.rel_err <= result.bound
    assert not result.ok
    assert ("not deterministic: 2 distinct outputs in 4 calls on the same inputs, largest "
            f"difference {result.repeat_max_diff:.2e}") in result.note
    assert check_case(module, spec, plan, case, seed=3, device="cpu", repeats=4).ok


def test_an_entry_declared_nondeterministic_is_reported_not_failed(tmp_path):
    text = MUTANTS.read_text().replace("splits: 3}", "splits: 3, deterministic: false}")
    path = tmp_path / "nondet.yaml"
    path.write_text(text)
    spec, plan, module, _ = prepare(path, interpret=True)
    assert plan.runners[0].deterministic is False and plan.fallback.deterministic is True
    shape = spec.shapes[0]
    case = uniform_case("k", shape.batch, shape.kv_len)
    result = check_case(Wrapped(module, jitter), spec, plan, case, seed=3, device="cpu", repeats=3)
    assert result.ok and result.distinct_outputs == 2 and result.deterministic is False
    assert "nondeterministic as declared: 2 distinct outputs in 3 calls" in result.note


def test_a_repeat_call_that_writes_nothing_is_caught():
    """Each repeat's output is poisoned before the next call: a call that leaves
    the buffer as it was shows as a different (NaN) output."""
    spec, plan, module, case = keyed_case()

    class Lazy:
        """From the second call on the same inputs on, returns its buffer untouched."""
        calls, out = 0, None

        def custom_kernel(self, data):
            self.calls += 1
            if self.calls < 3:
                self.out = module.custom_kernel(data)
            return self.out

    result = check_case(Lazy(), spec, plan, case, seed=3, device="cpu", repeats=3)
    assert not result.ok and result.distinct_outputs == 2 and result.repeat_max_diff == float("inf")


def test_the_spec_field_is_a_declaration_not_a_tuning_field(tmp_path):
    base = "target: {name: t, platform: cuda, fp8_format: e4m3fn}\nshapes:\n"
    spec = parse_spec(base + "  - {batch: 4, kv_len: 64, backend: torch_bmm, deterministic: false}\n"
                      "fallback: {backend: triton_single, deterministic: false}\n", "t.yaml")
    assert [s.deterministic for s in spec.shapes] == [False] and not spec.fallback.deterministic
    assert "deterministic" not in spec.shapes[0].tuning()
    plan = build_plan(spec)
    assert [r.deterministic for r in plan.all_runners] == [False, False]
    assert build_plan(parse_spec(base + "  - {batch: 4, kv_len: 64, backend: torch_bmm}\n"
                                 "fallback: {backend: triton_single}\n", "t.yaml")).runners[0].deterministic
    with pytest.raises(Exception) as info:
        parse_spec(base + "  - {batch: 4, kv_len: 64, backend: torch_bmm, deterministic: 1}\n"
                   "fallback: {backend: triton_single}\n", "t.yaml")
    assert "t.yaml:3: shapes[0].deterministic: 1 is not true or false" in str(info.value)


def test_a_retune_keeps_the_declaration():
    from generator.tune.specedit import edit_entries

    text = ("target: {name: t, platform: cuda, fp8_format: e4m3fn}\nshapes:\n"
            "  - {batch: 4, kv_len: 64, backend: triton_split, splits: 2, deterministic: false}\n"
            "fallback: {backend: triton_single}\n")
    edited = edit_entries(text, {0: {"backend": "triton_split", "splits": 4}})
    assert "splits: 4, deterministic: false}" in edited


# ---------------------------------------------------------------------------
# A margin, not a coin toss
# ---------------------------------------------------------------------------


def test_several_seeds_report_the_worst():
    spec, plan, module, case = keyed_case()
    many = check_case(module, spec, plan, case, seed=10, device="cpu", seeds=3)
    singles = [check_case(module, spec, plan, case, seed=10 + k, device="cpu") for k in range(3)]
    assert many.seeds == 3 and many.ok
    assert many.rel_err == max(r.rel_err for r in singles)
    assert len({r.rel_err for r in singles}) == 3  # the seeds differ
    assert many.margin == pytest.approx(many.rel_err / many.bound)


def test_a_worst_error_above_85_percent_of_the_bound_is_flagged_thin(monkeypatch):
    spec, plan, module, case = keyed_case()
    rel = check_case(module, spec, plan, case, seed=3, device="cpu").rel_err
    monkeypatch.setattr(check_mod, "strict_bound", lambda runner: rel / 0.9)
    thin = check_case(module, spec, plan, case, seed=3, device="cpu")
    assert thin.ok and thin.thin_margin and thin.margin == pytest.approx(0.9)
    assert "thin margin: worst of 1 seed at 90% of the bound" in thin.note
    monkeypatch.setattr(check_mod, "strict_bound", lambda runner: rel / 0.8)
    assert not check_case(module, spec, plan, case, seed=3, device="cpu").thin_margin


# ---------------------------------------------------------------------------
# CUDA graphs, with a stand-in for torch.cuda (only a GPU runs a graph)
# ---------------------------------------------------------------------------


class FakeCuda:
    """torch.cuda's graph API as replay.graph_replay uses it: a capture records
    the call it sees, a replay runs it again (as a graph's kernels rewrite the
    same buffers); streams are tokens whose use is logged."""

    def __init__(self, monkeypatch):
        self.log, self.capturing, self.captured = [], False, None
        fake = self

        class Graph:
            def replay(self):
                fake.log.append("replay")
                fn, data = fake.captured
                fn(data)

        @contextlib.contextmanager
        def graph(g):
            fake.log.append("capture")
            fake.capturing = True
            try:
                yield
            finally:
                fake.capturing = False

        @contextlib.contextmanager
        def stream(s):
            fake.log.append("side stream")
            yield

        class Stream:
            def wait_stream(self, other):
                pass

        for name, value in {"is_available": lambda: True, "CUDAGraph": Graph, "graph": graph,
                            "stream": stream, "Stream": Stream, "current_stream": Stream,
                            "synchronize": lambda: None}.items():
            monkeypatch.setattr(torch.cuda, name, value)

    def runner(self, fn):
        """fn(data), recorded when called inside a capture."""
        def call(data):
            if self.capturing:
                self.captured = (fn, data)
            self.log.append("call")
            return fn(data)
        return call


def graph_inputs():
    spec, plan, module, case = keyed_case()
    from generator.gpu.inputs import make_inputs

    data = make_inputs(case, 5, "cpu")
    eager = module.custom_kernel(data).clone()
    return module, data, eager


def test_a_graph_is_warmed_up_on_a_side_stream_captured_once_and_replayed(monkeypatch):
    module, data, eager = graph_inputs()
    cuda = FakeCuda(monkeypatch)
    result = replay.graph_replay(cuda.runner(module.custom_kernel), data, eager, exact=True,
                                 bound=1e-2, rel=check_mod._rel)
    assert result.status == "pass" and result.max_diff == 0.0
    assert cuda.log == ["side stream", "call", "call", "call", "capture", "call", "replay", "replay"]


def test_a_replay_that_differs_from_the_eager_output_fails(monkeypatch):
    module, data, eager = graph_inputs()
    cuda = FakeCuda(monkeypatch)
    calls = {"n": 0}

    def drifting(d):
        calls["n"] += 1
        out = module.custom_kernel(d)
        return jitter(calls["n"], out) if cuda.captured and not cuda.capturing else out

    result = replay.graph_replay(cuda.runner(drifting), data, eager, exact=True, bound=1e-2,
                                 rel=check_mod._rel)
    assert result.status == "fail" and "CUDA graph replay differs from the eager output" in result.note
    # a runner declared nondeterministic is held to its strict bound instead
    cuda = FakeCuda(monkeypatch)
    calls["n"] = 0
    result = replay.graph_replay(cuda.runner(drifting), data, eager, exact=False, bound=1e-2,
                                 rel=check_mod._rel)
    assert result.status == "pass" and 0 < result.max_diff < 0.1


def test_a_runner_that_cannot_be_captured_fails_with_a_note_not_a_crash(monkeypatch):
    module, data, eager = graph_inputs()
    cuda = FakeCuda(monkeypatch)

    def syncing(d):
        if cuda.capturing:
            raise RuntimeError("operation not permitted when stream is capturing\nmore")
        return module.custom_kernel(d)

    result = replay.graph_replay(cuda.runner(syncing), data, eager, exact=True, bound=1e-2,
                                 rel=check_mod._rel)
    assert result == replay.GraphReplay(
        "fail", "CUDA graph capture failed: RuntimeError: operation not permitted when stream "
                "is capturing")


def test_graphs_are_skipped_with_a_reason_on_the_cpu():
    assert replay.graphs_available() == "no CUDA graphs on the CPU"
    spec, plan, module, case = keyed_case()
    result = check_case(module, spec, plan, case, seed=3, device="cpu", graph=True)
    assert result.ok and result.graph == "skipped"
    assert result.graph_note == "Triton's interpreter runs on the CPU"


# ---------------------------------------------------------------------------
# Summary per entry, exit codes, JSON
# ---------------------------------------------------------------------------


def _result(runner, ok=True, rel=1e-3, thin=False, distinct=1, graph="pass", case="c"):
    return check_mod.Result(case, runner, "triton_split", "bf16", "fp8", rel, 1e-2, 0.0, rel, True,
                            ok, "" if ok else "strict error", margin=rel / 1e-2, thin_margin=thin,
                            distinct_outputs=distinct, repeats=3, graph=graph)


def test_summary_per_entry_and_exit_codes():
    results = [_result("run_a"), _result("run_a", rel=9e-3, thin=True, case="a-hot"),
               _result("run_b", ok=False, case="b-uneven"), _result("run_fallback", graph="fail")]
    entries = summarize(results, {"run_a": "a", "run_b": "b", "run_fallback": "fallback"},
                        ["a", "b", "fallback"], [("c", "aiter", "needs aiter")])
    by = {e.entry: e for e in entries}
    assert [e.entry for e in entries] == ["a", "b", "fallback", "c"]
    assert by["a"].status == PASSED and by["a"].thin_margin and by["a"].worst_rel_err == 9e-3
    assert by["a"].margin == pytest.approx(0.9) and by["a"].cases == 2
    assert by["b"].status == FAILED and by["b"].why == "b-uneven: strict error"
    assert by["fallback"].graph == "fail" and by["c"].status == UNRUNNABLE

    def verdict(entries):
        return Verdict("s.yaml", "cpu", 1, 3, 1, "skipped", (), tuple(entries))

    assert verdict(entries).exit_code() == EXIT_FAILED
    no_failure = [e for e in entries if e.status != FAILED]
    assert verdict(no_failure).exit_code() == EXIT_UNRUNNABLE == 3
    assert verdict(no_failure).exit_code(allow_unrunnable=True) == EXIT_OK
    assert verdict([by["a"]]).exit_code() == EXIT_OK


@pytest.fixture
def project(tmp_path, monkeypatch):
    shutil.copytree(ROOT / "specs", tmp_path / "specs")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_check_exits_3_when_a_selected_entry_cannot_run_here(project):
    """mi355x: b4_kv1024 is torch_bmm (runs on the CPU), b256_kv8192 aiter (not here)."""
    args = ["check", "--interpret", "--spec", "specs/mi355x.yaml", "--shapes", "b4_kv1024",
            "--shapes", "b256_kv8192", "--seeds", "2", "--json", "r.json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 3, result.output
    out = " ".join(result.output.split())
    assert "specs/mi355x.yaml: 2 entries: 1 passed, 0 failed, 1 not runnable here" in out
    assert ("not checked: b256_kv8192: backend 'aiter' runs on rocm only (this machine's torch: "
            "cuda)") in out
    report = json.loads((project / "r.json").read_text())
    assert report["summary"] == {"passed": 1, "failed": 0, "not_runnable": 1}
    assert report["seeds"] == 2 and report["repeats"] == 3 and report["thin_margin_above"] == 0.85
    assert [(e["entry"], e["status"]) for e in report["entries"]] == [
        ("b4_kv1024", "passed"), ("b256_kv8192", "not runnable here")]
    entry = report["entries"][0]
    assert entry["deterministic"] is True and entry["distinct_outputs"] == 1
    assert 0 < entry["margin"] < 0.85 and entry["worst_rel_err"] == pytest.approx(
        entry["margin"] * entry["bound"])
    for case in report["cases"]:
        assert case["seeds"] == 2 and case["repeats"] == 3 and case["distinct_outputs"] == 1
        assert case["graph"] == "skipped" and "margin" in case and "thin_margin" in case
    allowed = CliRunner().invoke(main, args + ["--allow-unrunnable"])
    assert allowed.exit_code == 0, allowed.output


def test_check_refuses_a_json_path_it_cannot_write_before_checking(project, monkeypatch):
    ran = []
    monkeypatch.setattr(check_mod, "run_checks", lambda *a, **k: ran.append(a))
    (project / "file").write_text("")
    result = CliRunner().invoke(main, ["check", "--interpret", "--spec", "specs/mi355x.yaml",
                                       "--json", "file/r.json"])
    assert result.exit_code == 2 and ran == []
    assert "--json file/r.json: cannot write there (" in result.output
    result = CliRunner().invoke(main, ["check", "--interpret", "--spec", "specs/mi355x.yaml",
                                       "--json", "specs"])
    assert result.exit_code == 2 and "'specs' is a directory" in result.output and ran == []


@pytest.mark.parametrize("option, where", [
    ("--json", "under-a-file"), ("--plot", "under-a-file"), ("--json", "read-only mount"),
])
def test_bench_refuses_an_output_path_it_cannot_write_before_timing(project, monkeypatch,
                                                                    option, where):
    """gen bench checks --json and --plot the way gen tune checks its paths: by
    creating a file there (mode bits say nothing to root, nor of a read-only
    mount, simulated here by the probe failing as it would on one)."""
    import generator.destinations as destinations
    from generator.gpu import bench as bench_mod

    ran = []
    monkeypatch.setattr(bench_mod, "run_bench", lambda *a, **k: ran.append(a))
    (project / "file").write_text("")
    (project / "out").mkdir()
    path = {"under-a-file": "file/r.json", "read-only mount": "out/r.json"}[where]
    if where == "read-only mount":
        def read_only(folder):
            raise OSError(30, "Read-only file system")
        monkeypatch.setattr(destinations, "probe_folder", read_only)
    result = CliRunner().invoke(main, ["bench", "--spec", "specs/h200.yaml", option, path])
    assert result.exit_code == 2 and ran == [], result.output
    why = {"read-only mount": "cannot write there (Read-only file system)",
           "under-a-file": "cannot write there ("}[where]
    assert f"{option} {path}: {why}" in result.output


def test_strict_bound_is_unchanged_by_the_declaration():
    spec, plan, _, _ = keyed_case()
    runner = dataclasses.replace(plan.runners[0], deterministic=False)
    assert strict_bound(runner) == strict_bound(plan.runners[0])


def test_the_default_spec_without_the_field_loads_as_deterministic():
    assert all(s.deterministic for s in load_spec(ROOT / "specs/h200.yaml").shapes)


def test_summary_shows_a_bound_as_written_not_rounded_to_one_digit():
    """A 3.5e-2 bound once printed as "4e-02", which made an 81% margin read as 71%."""
    from rich.console import Console

    from generator.gpu.check_report import EntrySummary, summary_lines, summary_table

    entry = EntrySummary("b4_kv1024", PASSED, "gluon", cases=1, worst_rel_err=3.2e-2,
                         bound=3.5e-2, margin=3.2 / 3.5, thin_margin=True, graph="pass")
    verdict = Verdict("s.yaml", "GPU", 8, 3, 1, "pass", (), (entry,))
    assert "of its bound 0.035 " in " ".join(summary_lines(verdict, 0.85))
    console = Console(width=200, record=True)
    console.print(summary_table(verdict))
    assert "0.035" in console.export_text()
