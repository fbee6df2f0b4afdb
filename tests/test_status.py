"""`gen status`: every entry of a spec with its backend and what validated it
(the CPU interpreter, a GPU check and timing from stored results, the aiter
commit its calls were checked against), and what never ran anywhere; the
runner stack (target.stack) is validated data."""

import json
import shutil

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.core.planner import tag_of
from generator.core.render import inputs_hash
from generator.core.spec import load_spec, parse_spec
from generator.errors import SpecError
from generator.status import spec_status

from conftest import ROOT, SPECS


def gen(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.output


def test_status_lists_every_entry_of_both_specs(in_root):
    code, out = gen("status")
    assert code == 0, out
    assert {p.name for p in SPECS} >= {"h200.yaml", "mi355x.yaml"}
    for path in SPECS:
        spec = load_spec(path)
        block = out.split(f"specs/{path.name}:")[1].split("\nspecs/")[0]
        entries = [(tag_of(s), s.backend) for s in spec.shapes] + [("fallback",
                                                                   spec.fallback.backend)]
        for tag, backend in entries:
            assert f"\n  {tag}: {backend}\n" in block
        assert block.count("    CPU:") == block.count("    GPU check:") == len(entries)


def test_mi355x_aiter_entries_never_ran_and_name_the_aiter_they_were_checked_against(in_root):
    status = spec_status("specs/mi355x.yaml")
    by_tag = {e.tag: e for e in status.entries}
    aiter = [e for e in status.entries if e.backend == "aiter"]
    assert len(aiter) == 3 and all(e.never_ran and "f3be04a (2026-03-04)" in e.aiter for e in aiter)
    assert by_tag["b4_kv1024"].cpu and by_tag["fallback"].cpu and not by_tag["b4_kv1024"].aiter
    assert status.stack == {"rocm": "7.1", "torch": "2.10.0+rocm7.1", "aiter": "f3be04a",
                            "aiter_date": "2026-03-04", "triton": "unpinned"}
    code, out = gen("status", "--spec", "specs/mi355x.yaml")
    assert "runner stack: ROCm 7.1, torch 2.10.0+rocm7.1, aiter f3be04a (2026-03-04), " \
           "triton unpinned" in out
    assert "never ran anywhere: b64_kv8192, b256_kv1024, b256_kv8192" in out


SPEC = """target: {name: t, platform: cuda, fp8_format: e4m3fn}
shapes:
  - {batch: 2, kv_len: 64, backend: triton_single}
  - {batch: 4, kv_len: 64, backend: gluon, splits: 2}
fallback: {backend: triton_split, splits: 2}
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs/t.yaml").write_text(SPEC)
    (tmp_path / "perf").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def bench(spec_hash, rows, **extra):
    return {"spec": "specs/t.yaml", "spec_hash": spec_hash, "device": "NVIDIA H200",
            "mode": "benchmark", "date": "2026-12-01 10:00:00 UTC",
            "rows": [{"shape": s, "backend": b, "queued": {"mean_us": m, "sem_us": 0.1,
                                                           "drift": 0.0}}
                     for s, b, m in rows], **extra}


def case(name, runner, backend, ok=True, q_mode="bf16", kv="fp8"):
    return {"case": name, "runner": runner, "backend": backend, "q_mode": q_mode,
            "kv_format": kv, "ok": ok}


def test_stored_results_match_entries_by_spec_hash_and_backend(project):
    perf = project / "perf"
    now = inputs_hash(load_spec("specs/t.yaml"))
    (perf / "h200-2026-12-02-x.json").write_text(json.dumps(
        bench(now, [("b2_kv64", "triton_single", 5.0), ("b4_kv64", "gluon", 7.0)])))
    (perf / "h200-2026-12-02-x-check.json").write_text(json.dumps([
        case("b2_kv64", "run_b2_kv64", "triton_single"),
        case("b4_kv64", "run_b4_kv64", "gluon", ok=False, q_mode="fp8_static"),
        case("uneven+empty", "run_fallback", "triton_split")]))
    # An older run of another backend for b2_kv64, and a check of another spec.
    (perf / "h200-2026-11-30-old.json").write_text(json.dumps(
        bench("0" * 16, [("b2_kv64", "triton_split", 9.0)])))
    (perf / "other-check.json").write_text(json.dumps([
        case("b2_kv64", "run_b2_kv64", "torch_bmm", kv="bf16")]))
    (perf / "broken.json").write_text("{not json")
    entries = {e.tag: e for e in spec_status("specs/t.yaml", perf).entries}

    single, glu, fallback = entries["b2_kv64"], entries["b4_kv64"], entries["fallback"]
    assert single.cpu and single.check.ok and single.check.exact is True
    assert single.check.device == "NVIDIA H200" and "1 case passed" in single.check.detail
    assert single.timing.exact is True and single.timing.detail.startswith("5.00 us")
    assert single.timing.file.endswith("h200-2026-12-02-x.json")
    assert glu.cpu is None and "cuda GPU only" in glu.cpu_why_not
    assert not glu.check.ok and glu.check.describe().startswith("FAILED: NVIDIA H200")
    assert fallback.check.ok and fallback.timing is None
    assert not any(e.never_ran for e in entries.values())


def test_an_entry_with_no_evidence_and_no_cpu_run_never_ran(project):
    entries = {e.tag: e for e in spec_status("specs/t.yaml", project / "perf").entries}
    assert entries["b4_kv64"].never_ran and not entries["b2_kv64"].never_ran
    code, out = gen("status", "--spec", "specs/t.yaml")
    assert code == 0 and "never ran anywhere: b4_kv64" in out
    assert "GPU check:  none stored" in out


def test_a_check_without_its_bench_file_says_what_it_does_not_record(project):
    (project / "perf/portable-check.json").write_text(json.dumps([
        case("b2_kv64", "run_b2_kv64", "triton_single")]))
    entry = spec_status("specs/t.yaml", project / "perf").entries[0]
    assert entry.check.exact is None and entry.check.device is None
    assert entry.check.describe().startswith("device not recorded, build not recorded")


def test_an_imported_leaderboard_result_counts_as_a_timing(project):
    lb = project / "lb.json"
    shutil.copy(ROOT / "tests/data/popcorn/leaderboard_output.txt", project / "lb.txt")
    spec = project / "specs/t.yaml"
    spec.write_text(SPEC.replace("batch: 4, kv_len: 64", "batch: 4, kv_len: 1024"))
    text = (project / "lb.txt").read_text().replace("kvseqlen: 1024; seed: 4217",
                                                    "kvseqlen: 1024; seed: 1")
    (project / "lb.txt").write_text(text)
    assert gen("results", "import", "lb.txt", "--spec", spec, "--json", lb)[0] == 0
    shutil.move(lb, project / "perf/lb.json")
    entry = {e.tag: e for e in spec_status("specs/t.yaml", project / "perf").entries}["b4_kv1024"]
    assert entry.timing.exact is True and entry.timing.device == "AMD Instinct MI355X"
    assert "popcorn-cli, leaderboard mode" in entry.timing.detail


@pytest.mark.parametrize("stack, message", [
    ("{rocm: '7.1'}", "target.stack.rocm: a rocm version on a cuda target"),
    ("{aiter: f3be04a}", "an aiter commit on a target without aiter"),
    ("{torch: '2.10 rc'}", "'2.10 rc' is not a version"),
    ("{aiter_date: '2026-03-04'}", "a date without an aiter commit"),
    ("{torchh: '2.10.0'}", r"torchh: unknown key \(did you mean 'torch'\?\)"),
])
def test_stack_is_validated_data(stack, message):
    text = f"target: {{name: t, platform: cuda, fp8_format: e4m3fn, stack: {stack}}}\n" \
           "shapes: []\nfallback: {backend: triton_split, splits: 2}\n"
    with pytest.raises(SpecError, match=message):
        parse_spec(text, "s.yaml")


@pytest.mark.parametrize("stack, message", [
    ("{aiter: F3BE04A}", "is not a commit"),
    ("{aiter: f3be04a, aiter_date: '2026-02-30'}", "is not a date"),
])
def test_stack_aiter_fields_on_a_rocm_target(stack, message):
    text = (f"target: {{name: t, platform: rocm, fp8_format: e4m3fn, aiter: true, "
            f"stack: {stack}}}\nshapes: []\nfallback: {{backend: triton_split, splits: 2}}\n")
    with pytest.raises(SpecError, match=message):
        parse_spec(text, "s.yaml")


def test_help_examples_show_both_specs():
    code, out = gen("--help")
    assert code == 0 and "specs/h200.yaml" in out and "specs/mi355x.yaml" in out
    assert "gen results import" in out and "gen compare" in out and "gen status" in out


def test_a_check_as_gen_check_writes_it_now_an_object_with_its_cases_counts(project):
    """gen check --json writes an object (settings, entries, cases); an older
    file is a bare list of cases. Both are evidence for the entries they cover."""
    (project / "perf/h200-x-check.json").write_text(json.dumps({
        "spec": "specs/t.yaml", "device": "NVIDIA H200", "seeds": 8, "summary": {},
        "entries": [], "cases": [case("b2_kv64", "run_b2_kv64", "triton_single"),
                                 case("b2_kv64-hot", "run_b2_kv64", "triton_single")]}))
    entry = spec_status("specs/t.yaml", project / "perf").entries[0]
    assert entry.check is not None and entry.check.ok
    assert "2 cases passed" in entry.check.detail
