"""Shared fixtures. Triton kernels run on the CPU through Triton's interpreter:
TRITON_INTERPRET must be set before triton is first imported."""

import os

os.environ["TRITON_INTERPRET"] = "1"

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SPECS = sorted((ROOT / "specs").glob("*.yaml"))


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
