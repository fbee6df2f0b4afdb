"""Spec validation: every user mistake is one located, explained line."""

import json
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
    assert "shapes[0].splits" in paths and "fallback.mma_dtype" in paths


def test_problems_of_every_kind_are_reported_in_one_run():
    """An unknown key or a wrong type does not hide the rules' problems: every
    part that types (or types once its faulty fields are left out) is judged."""
    text = (ROOT / "tests/bad_specs/all_at_once.yaml").read_text()
    with pytest.raises(SpecError) as info:
        parse_spec(text, "x.yaml")
    paths = [i.path for i in info.value.issues]
    assert paths == [
        "target.colour", "target.triton_options.kpack", "target.env.LD_PRELOAD",
        "shapes[0].blok_n", "shapes[0].num_warps", "shapes[1].batch", "shapes[1].block_n",
        "shapes[2].merge", "shapes[2].v_reload", "shapes[2].waves_per_eu", "shapes[3].q_mode",
        "shapes[4]", "shapes[4].num_stages", "fallback.backend", "fallback.block_n"]


def test_the_cli_prints_every_problem_one_line_each_exit_2(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from generator.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.yaml").write_text((ROOT / "tests/bad_specs/all_at_once.yaml").read_text())
    result = CliRunner().invoke(main, ["build", "--spec", "s.yaml"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 15 and all(line.startswith(("error: s.yaml:", "s.yaml:")) for line in lines)


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


def test_spec_that_is_not_utf8_is_one_located_error(tmp_path):
    path = tmp_path / "latin1.yaml"
    data = b"target: {name: t, platform: cuda, fp8_format: e4m3fn}\n# caf\xe9\n"
    path.write_bytes(data)
    with pytest.raises(SpecError) as info:
        load_spec(path)
    offset = data.index(b"\xe9")
    assert str(info.value) == f"{path}:2: not UTF-8 text (byte 0xe9 at offset {offset})"


def test_oversized_spec_is_refused_without_reading_it_all(tmp_path):
    from generator.core import safety

    path = tmp_path / "big.yaml"
    path.write_bytes(b"#" * (safety.MAX_SPEC_BYTES + 10))
    with pytest.raises(SpecError, match=r"big.yaml: cannot read: larger than 1024 KiB"):
        load_spec(path)


def test_a_folder_as_spec_is_a_user_error(tmp_path):
    with pytest.raises(SpecError, match="cannot read"):
        load_spec(tmp_path)


def test_alias_bomb_stops_fast():
    import time

    start = time.perf_counter()
    with pytest.raises(SpecError, match="more than 100000 values"):
        load_spec(ROOT / "tests/bad_specs/alias_bomb.yaml")
    assert time.perf_counter() - start < 5


def test_aliases_within_the_bound_still_work():
    spec = parse_spec(
        "target: {name: t, platform: cuda, fp8_format: e4m3fn}\n"
        "shapes:\n  - &s {batch: 2, kv_len: 64, backend: triton_split, splits: 4}\n"
        "  - {<<: *s, batch: 3}\n"
        "fallback: {backend: triton_split, splits: 4}\n",
        "t.yaml",
    )
    assert [s.batch for s in spec.shapes] == [2, 3] and spec.shapes[1].splits == 4


@pytest.mark.parametrize("name", ["h200", "mi355x", "A_1", "x" * 64])
def test_target_names_that_are_identifiers_are_accepted(name):
    spec = parse_spec(f"target: {{name: {name}, platform: cuda, fp8_format: e4m3fn}}\n"
                      "shapes: []\nfallback: {backend: triton_split, splits: 2}\n", "t.yaml")
    assert spec.target.name == name and spec.name_line == 1


@pytest.mark.parametrize("name", ["../../etc", "/abs", ".", "", "a/submission.py", "x" * 300,
                                  "1abc", "a.b", "a-b", "caf\u00e9", "a\nb"])
def test_target_names_that_could_leave_the_build_folder_are_refused(name):
    text = ("target: {name: %s, platform: cuda, fp8_format: e4m3fn}\n"
            "shapes: []\nfallback: {backend: triton_split, splits: 2}\n") % json.dumps(name)
    with pytest.raises(SpecError, match=r"t.yaml:1: target.name: .* is not a target name"):
        parse_spec(text, "t.yaml")
