"""Targets are independent: one target's defaults or spec never changes another
target's generated file. And the registry alone decides what a backend is."""

import ast
import dataclasses
import re
from pathlib import Path
from types import MappingProxyType

import pytest

from generator.core import registry
from generator.core.emit import render_outputs

from conftest import ROOT, SPECS


def _with_defaults(monkeypatch, platform: str, **changes):
    """Change every backend's defaults on one platform (for this test only)."""
    patched = {}
    for name, backend in registry.BACKENDS.items():
        defaults = dict(backend.defaults)
        if platform in defaults:
            fields = {k: v for k, v in changes.items() if k in backend.fields}
            defaults[platform] = {**defaults[platform], **fields}
        patched[name] = dataclasses.replace(backend, defaults=defaults)
    monkeypatch.setattr(registry, "BACKENDS", MappingProxyType(patched))


def _built(in_root):
    return {o.path.parent.name: o.source for o in render_outputs(SPECS)}


def _committed(target):
    return (ROOT / "build" / target / "submission.py").read_text()


@pytest.mark.parametrize("platform, changed, unchanged", [("cuda", "h200", "mi355x"),
                                                          ("rocm", "mi355x", "h200")])
def test_one_platforms_defaults_leave_the_other_target_byte_identical(
        monkeypatch, in_root, platform, changed, unchanged):
    # (fields every entry of both specs accepts with any of its other choices)
    _with_defaults(monkeypatch, platform, q_absmax=5.0, v_reload=False)
    built = _built(in_root)
    assert built[changed] != _committed(changed)  # the change took effect...
    assert built[unchanged] == _committed(unchanged)  # ...and only there


def test_one_targets_spec_leaves_the_other_target_byte_identical(in_root, tmp_path):
    h200 = Path("specs/h200.yaml").read_text()
    edited = h200.replace("splits: 16, dv_split: 2,", "splits: 8, dv_split: 2, early_refill: true,")
    assert edited != h200
    (tmp_path / "h200.yaml").write_text(edited)
    outputs = {o.path.parent.name: o.source
               for o in render_outputs([tmp_path / "h200.yaml", Path("specs/mi355x.yaml")])}
    assert outputs["mi355x"] == _committed("mi355x")
    assert outputs["h200"] != _committed("h200")


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.stem)
def test_every_fallback_multiplies_in_bf16(path):
    """fp16 overflows above 65504: a fallback must take any bf16 q, on every target."""
    tree = ast.parse(_committed(path.stem))
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef) and fn.name.startswith("mla_fallback_"):
            call = fn.body[-1].value
            kw = {k.arg: ast.unparse(k.value) for k in call.keywords}
            if "PV_DTYPE" in kw:
                assert kw["PV_DTYPE"] == kw["QK_DTYPE"] == "tl.bfloat16", fn.name


def test_no_code_outside_the_registry_names_a_backend():
    """Dispatch on a backend's name lives in the registry only."""
    names = "|".join(registry.BACKENDS)
    pattern = re.compile(rf"""(==|!=)\s*["']({names})["']|["']({names})["']\s*(==|!=)"""
                         rf"""|\bin\s*[(\[{{][^)\]}}]*["']({names})["']""")
    for path in sorted((ROOT / "generator").rglob("*.py")):
        if path.name == "registry.py":
            continue
        hits = [line for line in path.read_text().splitlines() if pattern.search(line)]
        assert not hits, f"{path.relative_to(ROOT)} names a backend: {hits}"


def test_every_backend_field_is_used():
    """Each registry entry's template exists and its defaults cover only its fields."""
    from generator.core.render import TEMPLATE_DIR

    for backend in registry.BACKENDS.values():
        assert (TEMPLATE_DIR / backend.template).is_file()
        assert callable(backend.plan)
        assert set(backend.defaults) <= set(backend.platforms)
        for defaults in backend.defaults.values():
            assert set(defaults) <= set(backend.fields), backend.name
        assert set(backend.search_space) <= set(backend.fields), backend.name
        for platform, axes in backend.platform_space.items():
            assert platform in backend.platforms and set(axes) <= set(backend.fields), backend.name
        assert set(backend.required) <= set(backend.fields), backend.name
