"""Shared fixtures. Triton kernels run on the CPU through Triton's interpreter:
TRITON_INTERPRET must be set before triton is first imported."""

import os

os.environ["TRITON_INTERPRET"] = "1"

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SPECS = sorted((ROOT / "specs").glob("*.yaml"))


def generated_source(spec_text: str, name: str = "t.yaml") -> str:
    """The submission a spec's text generates (parsed, planned, rendered)."""
    from generator.core.planner import build_plan
    from generator.core.render import render
    from generator.core.spec import parse_spec

    spec = parse_spec(spec_text, name)
    return render(build_plan(spec), spec)


@pytest.fixture(autouse=True, scope="session")
def _user_cache(tmp_path_factory):
    """gen tune keeps its default records in the user's cache folder: point it
    into the test's temporary tree, never the real one (nor the checkout)."""
    patch = pytest.MonkeyPatch()
    patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))
    yield
    patch.undo()


@pytest.fixture
def in_root(monkeypatch):
    """Run from the project root, as `gen` is used."""
    monkeypatch.chdir(ROOT)
    return ROOT


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true",
                     help="Rewrite golden files and error snapshots from the current output.")


@pytest.fixture
def update_golden(request):
    return request.config.getoption("--update-golden")
