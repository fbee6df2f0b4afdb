"""Spec validation: every user mistake is one located, explained line."""

from pathlib import Path

import pytest

from generator.errors import SpecError
from generator.core.registry import BACKENDS
from generator.core.spec import load_spec, parse_spec

from conftest import ROOT, SPECS

BAD = sorted((ROOT / "tests" / "bad_specs").glob("*.yaml"))


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_bad_spec_error_text_matches_snapshot(path: Path, update_golden):
    """tests/bad_specs/NAME.yaml fails with exactly the text in NAME.expected.
    Regenerate with `pytest --update-golden` and review the diff."""
    with pytest.raises(SpecError) as info:
        parse_spec(path.read_text(), f"bad_specs/{path.name}")
    expected = path.with_suffix(".expected")
    if update_golden:
        expected.write_text(str(info.value) + "\n")
    assert str(info.value) + "\n" == expected.read_text()


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_every_error_line_names_file_line_and_field(path: Path):
    with pytest.raises(SpecError) as info:
        parse_spec(path.read_text(), "s.yaml")
    for issue in info.value.issues:
        assert issue.line is not None and issue.line >= 1
        assert str(issue).startswith(f"s.yaml:{issue.line}: ")


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.stem)
def test_committed_specs_are_valid(path):
    spec = load_spec(path)
    assert spec.shapes and spec.fallback.backend in BACKENDS


def test_all_problems_are_reported_together():
    text = (ROOT / "tests/bad_specs/bad_values.yaml").read_text()
    with pytest.raises(SpecError) as info:
        parse_spec(text, "x.yaml")
    paths = [i.path for i in info.value.issues]
    assert len(paths) == 8
    assert "shapes[0].splits" in paths and "fallback.mma_m" in paths


def test_did_you_mean_for_typo_in_key():
    text = (ROOT / "tests/bad_specs/unknown_key.yaml").read_text()
    with pytest.raises(SpecError, match=r"blok_n: unknown key \(did you mean 'block_n'\?\)"):
        parse_spec(text, "x.yaml")


def test_defaults_are_not_filled_by_the_spec_stage():
    spec = parse_spec(
        "target: {name: t, platform: cuda, fp8_format: e4m3fn}\n"
        "shapes: [{batch: 2, kv_len: 64, backend: triton_single}]\n"
        "fallback: {backend: triton_split, splits: 2}\n",
        "t.yaml",
    )
    assert spec.shapes[0].tuning() == {}
    assert spec.shapes[0].key == (2, 64, 1, 16)


def test_missing_file_is_a_user_error():
    with pytest.raises(SpecError, match="cannot read"):
        load_spec("no/such/spec.yaml")
