"""docs/fields.md, the map from each spec field to the code it changes, stays
true: every field a spec may hold has its row (fields only the gluon backend
takes: its generated list, read from the registry), no row names a field that
is gone, each row's backends are the registry's, and each constexpr a row names
is one the plan functions make. The README stays a short quick start."""

import re
import textwrap

import pytest

from generator.core import registry
from generator.core.planner import build_plan
from generator.core.spec import EntrySpec, ShapeSpec, TargetSpec, load_spec

from conftest import ROOT

DOC = ROOT / "docs/fields.md"
BEGIN, END = "<!-- gluon-fields:begin -->\n", "<!-- gluon-fields:end -->"


def tables() -> dict[str, dict[str, tuple[str, str]]]:
    """Section title -> field -> (backends cell, the rest of the row)."""
    out: dict[str, dict[str, tuple[str, str]]] = {}
    for section in DOC.read_text().split("\n## ")[1:]:
        title, _, body = section.partition("\n")
        rows = out.setdefault(title.strip(), {})
        for line in body.splitlines():
            m = re.match(r"\| `(\w+)` \| ([^|]*) \| (.*) \|$", line)
            if m:
                assert m.group(1) not in rows, f"{m.group(1)} has two rows"
                rows[m.group(1)] = (m.group(2).strip(), m.group(3))
    return out


def taking(field: str) -> list[str]:
    return [name for name, b in registry.BACKENDS.items() if field in b.fields]


def gluon_only() -> list[str]:
    others = {f for name, b in registry.BACKENDS.items() if name != "gluon" for f in b.fields}
    return [f for f in registry.BACKENDS["gluon"].fields if f not in others]


def gluon_block() -> str:
    return textwrap.fill(", ".join(f"`{f}`" for f in gluon_only()), width=90) + "\n"


def test_target_fields_each_have_a_row():
    assert set(tables()["Target fields"]) == set(TargetSpec.model_fields)


def test_shape_keys_and_per_shape_fields_each_have_a_row():
    per_shape = set(ShapeSpec.model_fields) - set(EntrySpec.model_fields) | {"backend"}
    assert set(tables()["Shape keys and per-shape fields"]) == per_shape


def test_entry_fields_each_have_a_row_or_are_in_the_gluon_list(update_golden):
    text = DOC.read_text()
    listed = text.split(BEGIN)[1].split(END)[0]
    if update_golden and listed != gluon_block():
        DOC.write_text(text.replace(BEGIN + listed + END, BEGIN + gluon_block() + END))
        listed = gluon_block()
    assert listed == gluon_block(), (
        "docs/fields.md's list of gluon-only fields differs from the registry's: "
        "run `pytest tests/test_docs.py --update-golden`")
    rows = tables()["Entry fields"]
    entry_fields = set(EntrySpec.model_fields) - {"backend"}
    assert not set(rows) & set(gluon_only()), "a gluon-only field belongs in the generated list"
    missing = entry_fields - set(rows) - set(gluon_only())
    assert not missing, f"docs/fields.md has no row for: {sorted(missing)}"
    stale = set(rows) - entry_fields
    assert not stale, f"docs/fields.md has rows for fields no spec takes: {sorted(stale)}"
    registry_fields = {f for b in registry.BACKENDS.values() for f in b.fields}
    assert registry_fields <= set(rows) | set(gluon_only())


def test_each_row_names_the_backends_the_registry_gives_the_field():
    for field, (backends, _) in tables()["Entry fields"].items():
        if backends == "every backend":  # a policy of the entry, not a backend's tuning field
            assert field in EntrySpec.model_fields and not taking(field), field
        else:
            assert backends.split(", ") == taking(field), field


def _constexprs() -> set[str]:
    names = set()
    for path in ("tests/golden/all_backends.yaml", "tests/specs/mxfp4.yaml", "specs/h200.yaml",
                 "specs/mi355x.yaml"):
        plan = build_plan(load_spec(ROOT / path))
        names |= {c.name for r in plan.all_runners for launch in r.launches
                  for c in launch.constexprs}
    return names


def test_every_constexpr_a_row_names_is_made_by_a_plan_function():
    known = _constexprs()
    for title in ("Shape keys and per-shape fields", "Entry fields"):
        for field, (_, text) in tables()[title].items():
            phrases = re.findall(r"constexprs? ((?:`\w+`(?:, | and )?)+)", text)
            named = {n for p in phrases for n in re.findall(r"`(\w+)`", p)}
            assert named <= known, f"{field}: {sorted(named - known)} is no constexpr of a plan"


@pytest.mark.parametrize("page", ["fields.md", "spec.md", "workflow.md", "testing.md",
                                  "resources.md", "safety.md", "glossary.md"])
def test_the_docs_pages_exist_and_are_linked_from_the_readme(page):
    assert (ROOT / "docs" / page).is_file()
    assert f"docs/{page}" in (ROOT / "README.md").read_text()


def test_readme_is_a_short_quick_start_for_any_user():
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) < 150
    for word in ("device machine", "session", "the lead", "issue"):
        assert not re.search(rf"\b{word}\b", text.lower()), word
    for command in ("pip install", "make build", "make test", "gen build", "gen check",
                    "popcorn-cli submit", "gen results import", "gen compare", "gen status"):
        assert command in text, command


PRODUCT_TEXT = ["README.md", "PERF.md", "docs/*.md", "specs/*.yaml", "scripts/*"]


def test_perf_md_is_the_record_then_a_decisions_table():
    text = (ROOT / "PERF.md").read_text()
    lines = text.splitlines()
    assert len(lines) <= 500
    headings = [line for line in lines if line.startswith("## ")]
    assert headings[0].startswith("## The record"), headings[0]
    assert "# Decisions" in lines and "| idea | result | decision | commit |" in lines
    assert "scripts/record.sh" in text
    # the stored JSON the record names is in perf/
    for name in set(re.findall(r"perf/[\w.-]+\.json", text)):
        assert (ROOT / name).is_file(), name


def test_perf_keeps_only_stored_results_and_scripts_are_documented():
    stored = [p for p in (ROOT / "perf").rglob("*") if p.is_file()]
    assert len(stored) <= 40 and all(p.suffix == ".json" for p in stored), stored
    docs = (ROOT / "README.md").read_text() + "".join(
        p.read_text() for p in (ROOT / "docs").glob("*.md"))
    for script in (ROOT / "scripts").iterdir():
        if not script.is_file():
            continue
        assert f"scripts/{script.name}" in docs, f"scripts/{script.name} is documented nowhere"


def test_product_text_speaks_to_any_user():
    for pattern in PRODUCT_TEXT:
        for path in ROOT.glob(pattern):
            text = path.read_text().lower()
            for word in ("device machine", "session", "the lead"):
                assert not re.search(rf"\b{word}s?\b", text), f"{path.name}: {word}"
