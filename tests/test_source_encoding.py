"""A spec is data in bytes as well as in text. Python decodes a source file
with the encoding a comment in its first two lines declares (PEP 263): a
header line or a spec path saying `coding: raw_unicode_escape` would turn an
escaped line break inside a string into code when the file is imported,
while ast.parse of the text sees one harmless literal. Both routes are
refused before anything is written, a last gate in emit refuses any source
whose bytes would not run as its text reads, and importing what a build
wrote runs no code of the spec's."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.core import emit, safety
from generator.core.planner import build_plan
from generator.core.render import render
from generator.core.spec import parse_spec
from generator.errors import SpecError, UserError
from generator.gpu.harness import import_submission

# What the payloads do when they run: create this file in the working folder.
MARKER = "ran"
PAYLOAD = f"__import__('os').system('touch {MARKER}')"
# Route 1: a header line that declares raw_unicode_escape, then \u000a
# (a line break once decoded) and the payload on the next physical line.
HEADER = "#!POPCORN gpu MI355X coding: raw_unicode_escape \\u000a" + PAYLOAD
# Route 2: the spec's file name lands in the comment of line 1 (no header),
# and an environment value whose escaped quotes and line breaks unicode_escape
# decodes into statements.
PATH_NAME = "h coding=unicode_escape x.yaml"
ENV_VALUE = '1")\n' + PAYLOAD.replace("'", '"') + '\nprint("'


def spec_text(header=(), env=None, platform="rocm") -> str:
    target = {"name": "t", "platform": platform, "fp8_format": "e4m3fn", "header": list(header)}
    if env:
        target["env"] = env
    return json.dumps({
        "target": target,
        "shapes": [{"batch": 2, "kv_len": 64, "backend": "triton_single", "block_n": 16}],
        "fallback": {"backend": "triton_split", "splits": 2, "block_n": 16},
    })


ROUTES = {
    "header declares raw_unicode_escape": ("t.yaml", spec_text(header=[HEADER])),
    "spec path declares unicode_escape": (
        PATH_NAME, spec_text(env={"HIP_FORCE_DEV_KERNARG": ENV_VALUE})),
}


def gen(*args):
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def import_bytes_as_the_leaderboard_does(submission: Path) -> None:
    """`import submission` in a fresh interpreter, beside a task module, in the
    submission's folder (where the payload would create MARKER)."""
    (submission.parent / "task.py").write_text("input_t = output_t = object\n")
    subprocess.run([sys.executable, "-c", "import submission"], cwd=submission.parent,
                   capture_output=True, timeout=300)


@pytest.mark.parametrize("route", ROUTES)
def test_building_and_importing_the_built_bytes_runs_no_code(route, tmp_path, monkeypatch):
    name, text = ROUTES[route]
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text(text)
    code, out = gen("build", "--spec", name, "--build-dir", "build")
    built = tmp_path / "build/t/submission.py"
    if built.exists():
        import_bytes_as_the_leaderboard_does(built)
    assert not (built.parent / MARKER).exists(), "importing the built file ran the spec's code"
    assert code == 2 and "Traceback" not in out, out
    assert not built.exists()


def test_the_payloads_are_real_when_the_line_checks_are_bypassed(tmp_path, monkeypatch):
    """The control: with every check of the text switched off, the bytes a
    build would write do run the payload on import (so the test above can
    fail), and the last gate, looking at the bytes, still refuses them."""
    monkeypatch.setattr(safety, "encoding_declaration", lambda line: None)
    monkeypatch.setattr(safety, "encoded_as_utf8_problem", lambda source: None)
    spec = parse_spec(ROUTES["header declares raw_unicode_escape"][1], "t.yaml")
    source = render(build_plan(spec), spec)
    folder = tmp_path / "plain"
    folder.mkdir()
    (folder / "submission.py").write_bytes(source.encode("utf-8"))
    import_bytes_as_the_leaderboard_does(folder / "submission.py")
    assert (folder / MARKER).exists()
    monkeypatch.undo()
    out = emit.Output("t.yaml", Path("build/t/submission.py"), source, tmp_path / "w/submission.py")
    with pytest.raises(UserError, match="declare the source encoding 'raw_unicode_escape'"):
        emit.write_outputs([out])
    assert not (tmp_path / "w").exists()


def test_header_declaring_an_encoding_is_one_located_spec_error():
    with pytest.raises(SpecError) as info:
        parse_spec(spec_text(header=["#!POPCORN leaderboard amd-mixed-mla",
                                     "#!x -*- coding: latin-1 -*-"]), "s.yaml")
    (issue,) = info.value.issues
    assert issue.path == "target.header[1]" and issue.line == 1
    assert "declares the source encoding 'latin-1'" in issue.message


@pytest.mark.parametrize("line", ["#!a coding=utf-8", "#!a coding: ascii", "#!\tcoding:x",
                                  "#!vim: set fileencoding=latin-1 :"])
def test_every_pep263_form_is_an_encoding_declaration(line):
    assert safety.encoding_declaration(line)


@pytest.mark.parametrize("line", ["#!POPCORN leaderboard amd-mixed-mla", "#!POPCORN gpu MI355X",
                                  "#!encoding is fine", "#!coding without a colon"])
def test_ordinary_header_lines_declare_nothing(line):
    assert safety.encoding_declaration(line) is None


def test_a_benign_spec_named_like_a_declaration_is_refused_by_render():
    spec = parse_spec(spec_text(), PATH_NAME)
    with pytest.raises(UserError, match="spec's path .* would declare its source encoding "
                                        "'unicode_escape'.*rename the spec file"):
        render(build_plan(spec), spec)


def test_render_refuses_bytes_declaring_an_encoding_when_the_line_checks_miss_it(monkeypatch):
    monkeypatch.setattr(safety, "encoding_declaration", lambda line: None)
    spec = parse_spec(spec_text(header=[HEADER]), "t.yaml")
    with pytest.raises(UserError, match="generated file is refused: its first lines declare"):
        render(build_plan(spec), spec)


def test_harness_refuses_to_import_such_bytes(tmp_path):
    with pytest.raises(UserError, match="refusing to import"):
        import_submission("# coding: unicode_escape\nx = '\\n'\n", tmp_path)
    assert not (tmp_path / "submission.py").exists()


def test_the_last_gate_reads_the_bytes_as_python_does():
    assert safety.source_bytes_problem('x = 1\n') is None
    assert safety.source_bytes_problem("# coding: utf-8\nx = '\\n'\n") is None
    assert "declare the source encoding 'iso-8859-1'" in safety.source_bytes_problem(
        "# coding: latin-1\nx = 1\n")
    assert "Python refuses" in safety.source_bytes_problem("# coding: no-such-codec\nx = 1\n")
