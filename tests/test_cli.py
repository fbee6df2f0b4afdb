"""The `gen` command: builds, staleness check, diff, errors without tracebacks,
and nothing half-written when a build fails."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.core import emit
from generator.cli import main

from conftest import ROOT


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A copy of the project's specs in a scratch folder, as the working directory."""
    shutil.copytree(ROOT / "specs", tmp_path / "specs")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def gen(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_build_writes_every_target_then_reports_unchanged(project):
    result = gen("build")
    assert result.exit_code == 0, result.output
    assert (project / "build/h200/submission.py").is_file()
    assert (project / "build/mi355x/submission.py").is_file()
    assert "wrote: build/h200/submission.py (from specs/h200.yaml)" in result.output
    again = gen("build")
    assert "unchanged: build/h200/submission.py" in again.output


def test_build_output_equals_committed_build(project):
    gen("build")
    for target in ("h200", "mi355x"):
        built = (project / f"build/{target}/submission.py").read_text()
        assert built == (ROOT / f"build/{target}/submission.py").read_text()


def test_check_flags_stale_files_and_exits_1(project):
    gen("build")
    path = project / "build/h200/submission.py"
    path.write_text(path.read_text() + "# hand edit\n")
    result = CliRunner().invoke(main, ["build", "--check"])
    assert result.exit_code == 1
    assert "stale: build/h200/submission.py" in result.output
    assert "mi355x" not in result.output.split("stale")[1]
    assert path.read_text().endswith("# hand edit\n")  # --check writes nothing


def test_check_passes_when_up_to_date(project):
    gen("build")
    result = gen("build", "--check")
    assert result.exit_code == 0 and "up to date" in result.output


def test_diff_prints_what_a_build_would_change_without_writing(project):
    gen("build")
    spec = project / "specs/h200.yaml"
    assert spec.read_text().count("splits: 16, dv_split: 2,") == 1  # b4 kv1024's entry
    spec.write_text(spec.read_text().replace("splits: 16, dv_split: 2,", "splits: 8, dv_split: 2,"))
    before = (project / "build/h200/submission.py").read_text()
    result = CliRunner().invoke(main, ["build", "--diff"])
    assert result.exit_code == 1  # a difference, as diff(1) says
    assert "-    _gl_launch(mla_b4_kv1024_gluon_split16, (4, 32), " in result.output
    assert "+    _gl_launch(mla_b4_kv1024_gluon_split8, (4, 16), " in result.output
    assert (project / "build/h200/submission.py").read_text() == before


def test_one_bad_spec_means_nothing_is_written(project):
    (project / "specs/zz_bad.yaml").write_text((ROOT / "tests/bad_specs/unknown_key.yaml").read_text())
    result = CliRunner().invoke(main, ["build"])
    assert result.exit_code == 2
    assert not (project / "build").exists()


def test_spec_error_is_one_line_per_problem_without_traceback(project):
    bad = ROOT / "tests/bad_specs/block_n_not_pow2.yaml"
    proc = subprocess.run([sys.executable, "-m", "generator.cli", "build", "--spec", str(bad)],
                          capture_output=True, text=True, cwd=project,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "block_n_not_pow2.yaml:7: shapes[0].block_n: 48 is not a power of two" in proc.stderr


def test_interrupted_write_leaves_old_file_and_no_temp(tmp_path, monkeypatch):
    target = tmp_path / "build/x/submission.py"
    target.parent.mkdir(parents=True)
    target.write_text("old\n")

    def boom(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(emit.os, "replace", boom)
    with pytest.raises(OSError):
        emit.write_atomic(target, "new\n")
    assert target.read_text() == "old\n"
    assert list(target.parent.iterdir()) == [target]


def test_two_specs_for_one_target_is_an_error(project):
    shutil.copy(project / "specs/h200.yaml", project / "specs/h200_copy.yaml")
    result = CliRunner().invoke(main, ["build"])
    assert result.exit_code == 2 and "also built by" in result.output + str(result.stderr_bytes)


def test_gpu_commands_refuse_without_a_gpu(project):
    result = CliRunner().invoke(main, ["check", "--spec", "specs/h200.yaml"])
    assert result.exit_code == 2
    bench = CliRunner().invoke(main, ["bench", "--spec", "specs/h200.yaml"])
    assert bench.exit_code == 2


@pytest.mark.parametrize("command", [[], ["build"], ["check"], ["bench"]])
def test_help_is_available(command):
    result = gen(*command, "--help")
    assert result.exit_code == 0 and "Usage:" in result.output


def test_check_with_a_filter_that_matches_nothing_is_an_error(project):
    result = CliRunner().invoke(main, ["check", "--interpret", "--spec", "specs/h200.yaml",
                                       "--shapes", "bogus"])
    assert result.exit_code == 2
    assert "--shapes bogus: no such entry (valid: b4_kv1024, " in result.output
    assert "fallback)" in result.output


def test_check_with_a_filter_of_entries_that_cannot_run_here_is_an_error(project):
    result = CliRunner().invoke(main, ["check", "--interpret", "--spec", "specs/mi355x.yaml",
                                       "--shapes", "b256_kv8192"])
    assert result.exit_code == 2
    assert "none of these entries can run on this machine" in result.output


def _record_gpu_runs(monkeypatch):
    """Stand-ins for the GPU side of check and bench: record each call's spec and files."""
    from generator.gpu import bench as bench_mod
    from generator.gpu import check as check_mod

    calls = []

    def fake_bench(path, **kw):
        calls.append(("bench", Path(path).as_posix(), kw["json_path"]))
        return {"rows": []}

    class Passed:
        def exit_code(self, allow_unrunnable=False):
            return 0

    def fake_checks(path, **kw):
        calls.append(("check", Path(path).as_posix(), kw["json_path"]))
        return Passed()

    monkeypatch.setattr(bench_mod, "run_bench", fake_bench)
    monkeypatch.setattr(check_mod, "run_checks", fake_checks)
    return calls


def test_several_specs_in_one_run_write_one_json_per_spec(project, monkeypatch):
    calls = _record_gpu_runs(monkeypatch)
    (project / "more").mkdir(parents=True)
    shutil.copy(ROOT / "tests/specs/h200_mxfp4.yaml", project / "more/h200_mxfp4.yaml")
    specs = ["--spec", "specs/h200.yaml", "--spec", "more/h200_mxfp4.yaml"]
    for command in ("bench", "check"):
        result = gen(command, *specs, "--json", "out/r.json")
        assert result.exit_code == 0, result.output
    assert calls == [(command, spec, Path(f"out/r.{Path(spec).stem}.json"))
                     for command in ("bench", "check")
                     for spec in ("specs/h200.yaml", "more/h200_mxfp4.yaml")]
    calls.clear()
    assert gen("bench", "--spec", "specs/h200.yaml", "--json", "out/r.json").exit_code == 0
    assert calls == [("bench", "specs/h200.yaml", Path("out/r.json"))]  # one spec: as given


def test_several_specs_with_one_file_name_refuse_a_shared_json(project, monkeypatch):
    calls = _record_gpu_runs(monkeypatch)
    (project / "other").mkdir()
    shutil.copy(project / "specs/h200.yaml", project / "other/h200.yaml")
    for command in ("bench", "check"):
        result = CliRunner().invoke(main, [command, "--spec", "specs/h200.yaml", "--spec",
                                           "other/h200.yaml", "--json", "r.json"])
        assert result.exit_code == 2
        assert "would both write r.h200.json" in result.output
    assert calls == []  # refused before anything ran


# ---------------------------------------------------------------------------
# A missing optional extra is the user's to install, not a fault of gen
# ---------------------------------------------------------------------------

BLOCKED = """import sys
for name in {blocked!r}:
    sys.modules[name] = None  # import raises ModuleNotFoundError, as when not installed
from generator.cli import main
sys.argv = ["gen"] + {args!r}
main()
"""


@pytest.mark.parametrize("args, blocked, extra", [
    (["check", "--interpret", "--spec", "specs/h200.yaml"], ["torch", "triton"], "test"),
    (["bench", "--spec", "specs/h200.yaml"], ["torch"], "test"),
    (["tune", "--interpret", "--spec", "specs/h200.yaml", "--shapes", "b4_kv1024", "--budget", "1"], ["torch"], "test"),
])
def test_a_command_without_its_extra_says_what_to_install(project, args, blocked, extra):
    proc = subprocess.run([sys.executable, "-c", BLOCKED.format(blocked=blocked, args=args)],
                          capture_output=True, text=True, cwd=project,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    err = " ".join(proc.stderr.split())
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    assert (f"error: gen {args[0]} needs the Python module 'torch', which is not installed: "
            f"install the '{extra}' extra, e.g. pip install 'mla-gen[{extra}]'") in err


def test_the_extra_for_each_optional_module():
    from generator.cli import missing_extra

    def message(name, command):
        return missing_extra(ModuleNotFoundError(f"No module named '{name}'", name=name), command)

    assert "pip install 'mla-gen[resources]'" in message("triton", "resources")
    assert "pip install 'mla-gen[test]'" in message("torch.cuda", "check")
    assert "pip install 'mla-gen[plot]'" in message("matplotlib.pyplot", "bench")
    assert "pip install 'mla-gen[flashinfer]'" in message("flashinfer", "bench")
    assert message("generator.nonexistent", "check") is None  # a fault of gen: internal error
    assert message("yaml_typo", "build") is None
