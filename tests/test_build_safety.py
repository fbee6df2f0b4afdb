"""`gen build` on hostile or broken inputs: outputs stay in the build folder,
a multi-spec build is all or nothing, files get the ordinary mode, a corrupt
existing file is repaired, and every user-caused failure is one line naming
the spec (and line), exit code 2; a fault of gen itself says so, exit code 1."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.core import emit
from generator.cli import main

from conftest import ROOT

SPEC = """target: {name: %s, platform: cuda, fp8_format: e4m3fn}
shapes: [{batch: 2, kv_len: 64, backend: triton_single}]
fallback: {backend: triton_split, splits: 2}
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs/a.yaml").write_text(SPEC % "a")
    (tmp_path / "specs/b.yaml").write_text(SPEC % "b")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def gen(*args):
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def one_error_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1, output
    assert "Traceback" not in output
    return lines[0]


# -- containment (finding 1) -------------------------------------------------


def test_target_folder_linked_outside_the_build_folder_is_refused(project, tmp_path_factory):
    outside = tmp_path_factory.mktemp("outside")
    (project / "build").mkdir()
    (project / "build/b").symlink_to(outside)
    code, out = gen("build")
    assert code == 2
    line = one_error_line(out)
    assert "specs/b.yaml:1: target.name: 'b':" in line and "outside the build folder" in line
    assert not list(outside.iterdir()) and not (project / "build/a").exists()


def test_two_targets_resolving_to_one_file_are_refused(project):
    (project / "build").mkdir()
    (project / "build/a").mkdir()
    (project / "build/b").symlink_to(project / "build/a")
    code, out = gen("build")
    assert code == 2
    assert "specs/b.yaml:1: target.name: target 'b' writes build/b/submission.py, which is " \
           "also built by specs/a.yaml" in one_error_line(out)


@pytest.mark.parametrize("name", ["../../etc", "/tmp/x", ".", '""', "a/submission.py", "x" * 300])
def test_path_like_or_long_names_are_one_spec_error(project, name):
    (project / "specs/b.yaml").write_text(SPEC % name)
    code, out = gen("build")
    assert code == 2
    assert one_error_line(out).startswith("error: specs/b.yaml:1: target.name: ")
    assert not (project / "build").exists()


# -- all or nothing, modes (findings 3, 9) -------------------------------------


def test_build_is_all_or_nothing_when_a_later_destination_is_a_folder(project):
    (project / "build/a").mkdir(parents=True)
    (project / "build/a/submission.py").write_text("old a\n")
    (project / "build/b/submission.py").mkdir(parents=True)  # a folder where the file goes
    code, out = gen("build")
    assert code == 2
    assert "specs/b.yaml:1: target.name: " in one_error_line(out)
    assert "build/b/submission.py" in out and "folder" in out
    assert (project / "build/a/submission.py").read_text() == "old a\n"
    assert os.listdir(project / "build/a") == ["submission.py"]  # no temp file left


def test_build_is_all_or_nothing_when_a_later_folder_is_not_writable(project, monkeypatch):
    (project / "build/a").mkdir(parents=True)
    (project / "build/a/submission.py").write_text("old a\n")
    real = emit.tempfile.mkstemp

    def mkstemp(*args, dir=None, **kw):
        if os.path.basename(dir) == "b":
            raise PermissionError(13, "Permission denied")
        return real(*args, dir=dir, **kw)

    monkeypatch.setattr(emit.tempfile, "mkstemp", mkstemp)
    code, out = gen("build")
    assert code == 2
    line = one_error_line(out)
    assert "specs/b.yaml:1: target.name: cannot write build/b/submission.py: Permission denied" \
           in line
    assert (project / "build/a/submission.py").read_text() == "old a\n"
    assert os.listdir(project / "build/a") == ["submission.py"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_build_folder_is_a_user_error(project):
    (project / "build").mkdir()
    (project / "build").chmod(0o555)
    try:
        code, out = gen("build")
    finally:
        (project / "build").chmod(0o755)
    assert code == 2 and "Permission denied" in one_error_line(out)


def test_written_files_get_the_ordinary_mode(project):
    mask = os.umask(0o022)
    try:
        assert gen("build")[0] == 0
    finally:
        os.umask(mask)
    assert (project / "build/a/submission.py").stat().st_mode & 0o777 == 0o644


# -- a corrupt existing file (finding 4) ---------------------------------------


def test_corrupt_existing_file_is_stale_shown_in_diff_and_replaced(project):
    assert gen("build")[0] == 0
    path = project / "build/a/submission.py"
    good = path.read_text()
    path.write_bytes(b"\xff\xfe garbage \x80\n")
    code, out = gen("build", "--check")
    assert code == 1 and "stale: build/a/submission.py (is not UTF-8 text; run `gen build`)" in out
    code, out = gen("build", "--diff")
    assert code == 1 and "--- a/build/a/submission.py (not UTF-8 text)" in out
    code, out = gen("build")
    assert code == 0
    assert "wrote: build/a/submission.py (from specs/a.yaml, replacing a file that was not " \
           "UTF-8 text)" in out
    assert path.read_text() == good


def test_output_path_that_is_a_folder_is_a_user_error_for_check_too(project):
    (project / "build/a/submission.py").mkdir(parents=True)
    code, out = gen("build", "--check")
    assert code == 2
    assert one_error_line(out) == \
        "error: specs/a.yaml:1: target.name: cannot read build/a/submission.py: it is a folder"


# -- loops of links and FIFOs under build/ ------------------------------------


def gen_in_a_process(project, *args, timeout=60):
    """`gen ARGS` in its own process, so that a hang fails the test instead of
    stopping the suite."""
    import generator

    package_root = str(Path(generator.__file__).resolve().parents[1])
    try:
        return subprocess.run([sys.executable, "-m", "generator.cli", *args], capture_output=True,
                              text=True, cwd=project, timeout=timeout,
                              env={**os.environ, "PYTHONPATH": package_root})
    except subprocess.TimeoutExpired:
        pytest.fail(f"gen {' '.join(args)} hung")


@pytest.mark.parametrize("links", [{"build/a/submission.py": "submission.py"},
                                   {"build/a": "a"},
                                   {"build/a": "x", "build/x": "a"}], ids=["file", "folder", "two"])
@pytest.mark.parametrize("args", [("build",), ("build", "--check"), ("build", "--diff")])
def test_a_loop_of_links_in_the_build_folder_is_one_user_error(project, links, args):
    (project / "build").mkdir()
    if "build/a" not in links:
        (project / "build/a").mkdir()
    for link, to in links.items():
        (project / link).symlink_to(to)
    code, out = gen(*args)
    assert code == 2, out
    assert one_error_line(out) == ("error: specs/a.yaml:1: target.name: 'a': "
                                   "build/a/submission.py goes through a loop of symbolic links "
                                   "(remove the link)")
    assert not (project / "build/b").exists()


@pytest.mark.parametrize("args", [("build",), ("build", "--check"), ("build", "--diff")])
def test_a_fifo_where_the_submission_goes_is_one_user_error_not_a_hang(project, args):
    (project / "build/a").mkdir(parents=True)
    os.mkfifo(project / "build/a/submission.py")
    proc = gen_in_a_process(project, *args)
    assert proc.returncode == 2, proc.stderr
    assert one_error_line(proc.stderr) == (
        "error: specs/a.yaml:1: target.name: cannot read build/a/submission.py: it is a FIFO, "
        "not a regular file (remove it)")


def test_a_fifo_as_resources_report_or_spec_does_not_hang(project):
    (project / "build/a").mkdir(parents=True)
    os.mkfifo(project / "build/a/resources.json")
    proc = gen_in_a_process(project, "build")
    assert proc.returncode == 0, proc.stderr
    os.mkfifo(project / "specs/c.yaml")
    proc = gen_in_a_process(project, "build", "--check")
    assert proc.returncode == 2
    assert one_error_line(proc.stderr) == \
        "error: specs/c.yaml: cannot read: it is a FIFO, not a regular file"


# -- one line, the right exit code (finding 6) ---------------------------------


def test_spec_that_is_not_utf8_is_one_line_exit_2_without_traceback(project):
    data = (SPEC % "b").encode() + b"# \xe9\n"
    (project / "specs/b.yaml").write_bytes(data)
    proc = subprocess.run([sys.executable, "-m", "generator.cli", "build"], capture_output=True,
                          text=True, cwd=project, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 2
    assert one_error_line(proc.stderr) == \
        f"error: specs/b.yaml:4: not UTF-8 text (byte 0xe9 at offset {data.index(0xe9)})"


def test_a_fault_of_gen_itself_says_so_and_exits_1(project, monkeypatch):
    def broken(plan, spec):
        raise TypeError("unexpected None")

    monkeypatch.setattr(emit, "render", broken)
    monkeypatch.delenv("GEN_DEBUG", raising=False)
    code, out = gen("build")
    assert code == 1
    assert one_error_line(out) == ("gen internal error (a bug in gen; GEN_DEBUG=1 shows the "
                                   "traceback): TypeError: unexpected None")


def test_invalid_rendered_python_names_the_spec(project, monkeypatch):
    from generator.errors import GenError

    def broken(plan, spec):
        raise GenError("rendered a submission is not valid Python: line 3: invalid syntax")

    monkeypatch.setattr(emit, "render", broken)
    code, out = gen("build")
    assert code == 1
    assert one_error_line(out).startswith("gen failed: specs/a.yaml: rendered a submission")


def test_committed_specs_still_build_byte_identical(tmp_path, monkeypatch):
    shutil.copytree(ROOT / "specs", tmp_path / "specs")
    monkeypatch.chdir(tmp_path)
    assert gen("build")[0] == 0
    for target in ("h200", "mi355x"):
        assert (tmp_path / f"build/{target}/submission.py").read_text() == \
            (ROOT / f"build/{target}/submission.py").read_text()
