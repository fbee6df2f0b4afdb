"""The package installs: a wheel built from a fresh copy of the tree (no folder
that only the Makefile makes) carries the templates and builds from any
directory; building it leaves build/ holding only targets."""

import shutil
import subprocess
import sys
import zipfile

from conftest import ROOT


def fresh_copy(dest):
    """The tree as a fresh clone has it (tracked and new unignored files): no
    .venv, no .setuptools-build, no egg-info."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                           cwd=ROOT, check=True, capture_output=True).stdout.decode().split("\0")
    for name in filter(None, files):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


def test_wheel_carries_the_templates_and_builds_from_elsewhere(tmp_path):
    tree = fresh_copy(tmp_path / "clone")
    assert not (tree / ".setuptools-build").exists()
    before = sorted(p.name for p in (tree / "build").iterdir())
    dist = tmp_path / "dist"
    # With build isolation, as `pip install .` does: setuptools reads the
    # project's configuration in a fresh environment.
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", str(tree), "--no-deps", "-q",
                           "-w", str(dist)], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    # setuptools' staging went elsewhere: build/ still holds only the targets.
    assert sorted(p.name for p in (tree / "build").iterdir()) == before
    assert all((tree / "build" / name / "submission.py").is_file() for name in before)

    (wheel,) = dist.glob("mla_gen-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        z.extractall(tmp_path / "site")
    templates = {p.relative_to(ROOT / "templates").as_posix()
                 for p in (ROOT / "templates").rglob("*.j2")}
    assert {f"generator/templates/{t}" for t in templates} <= names

    # The unpacked wheel, first on the path, builds from a folder holding only specs.
    work = tmp_path / "elsewhere"
    shutil.copytree(ROOT / "specs", work / "specs")
    code = ("import sys, generator; from generator.cli import main; "
            "assert generator.__file__.startswith(sys.argv[1]), generator.__file__; "
            "sys.argv = ['gen', 'build']; main()")
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path / "site")], cwd=work,
                          capture_output=True, text=True,
                          env={"PYTHONPATH": str(tmp_path / "site"), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    for target in ("h200", "mi355x"):
        built = (work / "build" / target / "submission.py").read_text()
        assert built == (ROOT / "build" / target / "submission.py").read_text()
