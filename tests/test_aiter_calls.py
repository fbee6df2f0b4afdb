"""Every aiter call in a generated file binds to aiter's published signature
(tests/data/aiter_signatures.py) and is imported from the module that defines it."""

import ast
import inspect

import pytest

from generator.core.planner import build_plan
from generator.core.render import render
from generator.core.spec import load_spec

from conftest import ROOT
from data.aiter_signatures import AITER_COMMIT, AITER_DATE, SIGNATURES

SOURCES = [ROOT / "specs/mi355x.yaml", ROOT / "tests/golden/all_backends.yaml"]


def source_of(path):
    spec = load_spec(path)
    return render(build_plan(spec), spec)


def aiter_calls(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in SIGNATURES:
            yield node


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_every_aiter_call_binds_to_the_published_signature(path):
    tree = ast.parse(source_of(path))
    calls = list(aiter_calls(tree))
    assert {c.func.id for c in calls} >= {"mla_decode_fwd", "static_per_tensor_quant"}
    for call in calls:
        sig = inspect.signature(SIGNATURES[call.func.id][1])
        args = [object() for a in call.args if not isinstance(a, ast.Starred)]
        kwargs = {k.arg: object() for k in call.keywords if k.arg is not None}
        # **ctx["meta"] expands to the persistent-metadata keywords
        if any(k.arg is None for k in call.keywords):
            kwargs.update({k: object() for k in ("work_meta_data", "work_indptr", "work_info_set",
                                                  "reduce_indptr", "reduce_final_map",
                                                  "reduce_partial_map")})
        sig.bind(*args, **kwargs)  # raises TypeError on a wrong name or count


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_aiter_functions_come_from_their_modules(path):
    tree = ast.parse(source_of(path))
    imported = {a.name: n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                for a in n.names}
    for call in aiter_calls(tree):
        assert imported.get(call.func.id) == SIGNATURES[call.func.id][0]


def test_a_wrong_keyword_would_be_caught():
    sig = inspect.signature(SIGNATURES["mla_decode_fwd"][1])
    with pytest.raises(TypeError):
        sig.bind(*range(8), num_splits=4)


def test_golden_spec_exercises_persistent_and_dynamic_paths():
    tree = ast.parse(source_of(ROOT / "tests/golden/all_backends.yaml"))
    names = {c.func.id for c in aiter_calls(tree)}
    assert {"get_mla_metadata_info_v1", "get_mla_metadata_v1", "dynamic_per_tensor_quant"} <= names


def test_signatures_are_those_of_the_runner_stacks_aiter():
    """The signatures were recorded from the aiter the MI355X runner has, which
    the spec names as data (and gen status reports)."""
    stack = load_spec(ROOT / "specs/mi355x.yaml").target.stack
    assert (stack.aiter, stack.aiter_date) == (AITER_COMMIT, AITER_DATE)
    assert (stack.rocm, stack.torch, stack.triton) == ("7.1", "2.10.0+rocm7.1", "unpinned")
