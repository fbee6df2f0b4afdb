"""A hostile spec cannot put code into the generated file: every string a spec
supplies is either refused by the spec stage or reaches the output only through
an escaping filter, and the file's syntax tree is then exactly the one a benign
spec gives (same statements; only string constants differ)."""

import ast
import json

import pytest

from generator.errors import SpecError
from generator.core.planner import build_plan
from generator.core.render import render
from generator.core import safety
from generator.core.safety import comment, docstring, py_str
from generator.core.spec import parse_spec

# Everything that has broken out of a literal, a comment or a docstring
# somewhere: quotes of each kind, line breaks Python honours (\n, \r) and those
# editors and diff viewers show (\u2028, \x0c, \x85), NUL, backslashes, Jinja
# syntax, and a payload.
HOSTILE = ('"""' "'''" '"\'\\' "\r\n\x00\x0c\x85\u2028\u2029\t"
           '{{ plan }}{% raw %}#"); import os; os.system("echo pwned"); ("')
HOSTILE_NO_NUL = HOSTILE.replace("\x00", "")
# The header character set (printable ASCII) still holds quotes and backslashes.
HOSTILE_HEADER = '#!"""\'\'\' \\ {{ x }} ); import os; os.system("echo pwned") #'

BENIGN = {
    "name": "t",
    "platform": "cuda",
    "fp8_format": "e4m3fn",
    "header": ["#!a"],
    "env": {"CUDA_MODULE_LOADING": "LAZY"},
    "triton_options": {},
}
ENTRY = {"backend": "triton_split", "splits": 2}


def spec_text(target=None, shape=None, fallback=None) -> str:
    return json.dumps({
        "target": {**BENIGN, **(target or {})},
        "shapes": [{"batch": 2, "kv_len": 64, "backend": "triton_single", **(shape or {})}],
        "fallback": {**ENTRY, **(fallback or {})},
    })


def source(text: str, path: str = "specs/t.yaml") -> str:
    spec = parse_spec(text, path)
    return render(build_plan(spec), spec)


def statements(src: str) -> str:
    """The module's syntax tree with every string constant blanked."""
    tree = ast.parse(src)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            node.value = ""
    return ast.dump(tree)


BENIGN_SOURCE = source(spec_text())


def assert_same_program(src: str) -> None:
    assert statements(src) == statements(BENIGN_SOURCE)
    # ... and the file's bytes are that program too (no source encoding
    # declared in its first lines: tests/test_source_encoding.py)
    assert safety.source_bytes_problem(src) is None
    # Same physical lines (nothing split one), nothing Python or a viewer
    # would read as a line break or refuse.
    assert src.count("\n") == BENIGN_SOURCE.count("\n")
    for bad in ("\r", "\x00", "\x0c", "\x85", "\u2028", "\u2029"):
        assert bad not in src


# Every string field of a spec, with the hostile value in it.
REFUSED = {
    "target.name": dict(target={"name": HOSTILE}),
    "target.platform": dict(target={"platform": HOSTILE}),
    "target.fp8_format": dict(target={"fp8_format": HOSTILE}),
    "target.header (control characters)": dict(target={"header": ["#!" + HOSTILE]}),
    "target.env key": dict(target={"env": {HOSTILE: "1"}}),
    "target.env value with NUL": dict(target={"env": {"CUDA_MODULE_LOADING": HOSTILE}}),
    "target.env value": dict(target={"env": {"CUDA_MODULE_LOADING": HOSTILE_NO_NUL}}),
    "target.env value (quotes and an escaped line break)":
        dict(target={"env": {"CUDA_MODULE_LOADING": '1")\n__import__("os").system("x")\n("'}}),
    "target.header (encoding declaration)":
        dict(target={"header": ["#!POPCORN gpu MI355X coding: raw_unicode_escape \\u000a1"]}),
    "target.triton_options key": dict(target={"triton_options": {HOSTILE: 1}}),
    "shapes[0].backend": dict(shape={"backend": HOSTILE}),
    "shapes[0].q_mode": dict(shape={"q_mode": HOSTILE}),
    "shapes[0].kv_format": dict(shape={"kv_format": HOSTILE}),
    "shapes[0].mma_dtype": dict(shape={"mma_dtype": HOSTILE}),
    "fallback.merge": dict(fallback={"merge": HOSTILE}),
    "fallback.backend": dict(fallback={"backend": HOSTILE}),
}


@pytest.mark.parametrize("field", REFUSED)
def test_hostile_value_is_refused_by_the_spec_stage(field):
    with pytest.raises(SpecError):
        parse_spec(spec_text(**REFUSED[field]), "specs/t.yaml")


def test_env_value_is_one_string_literal():
    src = source(spec_text(target={"env": {"CUDA_DEVICE_MAX_CONNECTIONS": "8"}}))
    call = next(n for n in ast.walk(ast.parse(src)) if isinstance(n, ast.Call)
                and ast.unparse(n.func) == "os.environ.setdefault")
    assert [a.value for a in call.args] == ["CUDA_DEVICE_MAX_CONNECTIONS", "8"]


def test_hostile_header_line_stays_one_comment_line():
    src = source(spec_text(target={"header": [HOSTILE_HEADER]}))
    assert_same_program(src)
    assert src.splitlines()[0] == HOSTILE_HEADER


@pytest.mark.parametrize("path", ['specs/a"""b.yaml', "specs/a\nimport os\n.yaml",
                                  "specs/a\rimport os.yaml", "specs/" + HOSTILE + ".yaml"])
def test_hostile_spec_path_stays_inside_the_generated_comment(path):
    src = source(spec_text(), path)
    assert_same_program(src)
    assert src.splitlines()[1].startswith("# Generated by gen ")


def test_filters_round_trip_through_python():
    for value in (HOSTILE, "", "plain", "\\", '"', "\U0001f600"):
        assert ast.literal_eval(py_str(value)) == value
        assert ast.literal_eval('"""' + docstring(value) + '"""') == comment(value)
        assert "\n" not in comment(value) and "\r" not in comment(value)
