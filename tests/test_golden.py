"""Golden records of the generated output: a template or plan change shows up
as a reviewed diff of these files. Regenerate with `pytest --update-golden`."""

from pathlib import Path

import pytest

from generator.core.emit import render_outputs
from generator.core.planner import build_plan
from generator.core.render import render
from generator.core.spec import load_spec

from conftest import ROOT, SPECS

GOLDEN = ROOT / "tests" / "golden"


def _render(spec_path: Path, interpret=False) -> str:
    spec = load_spec(spec_path)
    return render(build_plan(spec, interpret=interpret), spec)


@pytest.mark.parametrize("name, interpret", [("all_backends", False), ("all_backends", True),
                                             ("gluon", False)],
                         ids=["gpu", "interpret", "gluon"])
def test_golden(name, interpret, update_golden, in_root):
    source = _render(Path(f"tests/golden/{name}.yaml"), interpret)
    golden = GOLDEN / f"{name}{'.interpret' if interpret else ''}.py.txt"
    if update_golden:
        golden.write_text(source)
    assert source == golden.read_text(), "generated code changed: review, then --update-golden"


def test_committed_build_matches_specs(in_root):
    """The same property `gen build --check` enforces in CI."""
    for out in render_outputs(SPECS):
        assert not out.stale, f"{out.path} is stale: run gen build"


def test_build_is_deterministic(in_root):
    first = [o.source for o in render_outputs(SPECS)]
    second = [o.source for o in render_outputs(SPECS)]
    assert first == second


def test_header_names_spec_and_hash_of_inputs(in_root, tmp_path):
    source = _render(Path("specs/h200.yaml"))
    assert "from specs/h200.yaml (inputs hash " in source.splitlines()[0]
    # A spec edit changes the hash even when it does not change the code.
    text = Path("specs/h200.yaml").read_text() + "\n# a comment\n"
    edited = tmp_path / "h200.yaml"
    edited.write_text(text)
    other = _render(edited)
    assert other.splitlines()[0] != source.splitlines()[0]
    assert other.splitlines()[1:] == source.splitlines()[1:]
