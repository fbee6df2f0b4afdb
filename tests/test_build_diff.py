"""`gen build --diff`: exit 1 when a build would change a file, 0 when not (as
diff(1) does); a normal unified diff whatever the old file's line endings; an
old file's control characters (terminal escapes) printed escaped, never raw."""

import pytest
from click.testing import CliRunner

from generator.cli import main

SPEC = """target: {name: a, platform: cuda, fp8_format: e4m3fn}
shapes: [{batch: 2, kv_len: 64, backend: triton_single, block_n: %d}]
fallback: {backend: triton_split, splits: 2}
"""


@pytest.fixture
def built(tmp_path, monkeypatch):
    """A built one-spec project; returns the generated file's path."""
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs/a.yaml").write_text(SPEC % 32)
    monkeypatch.chdir(tmp_path)
    assert gen("build")[0] == 0
    return tmp_path / "build/a/submission.py"


def gen(*args):
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def changed_lines(out: str) -> list[str]:
    return [line for line in out.splitlines()
            if line[:1] in "+-" and not line.startswith(("---", "+++"))]


def test_no_difference_exits_0_and_prints_nothing(built):
    assert gen("build", "--diff") == (0, "")


def test_a_difference_exits_1_and_shows_only_the_changed_lines(built):
    (built.parent.parent.parent / "specs/a.yaml").write_text(SPEC % 16)
    code, out = gen("build", "--diff")
    assert code == 1
    lines = changed_lines(out)
    assert lines and all("BLOCK_N" in line or "block_n" in line or "inputs hash" in line
                         for line in lines), lines


def test_crlf_line_endings_show_no_unchanged_line_as_changed(built):
    text = built.read_text()
    built.write_bytes(text.replace("\n", "\r\n").replace("BLOCK_N=32", "BLOCK_N=99").encode())
    code, out = gen("build", "--diff")
    assert code == 1
    assert out.startswith("--- a/build/a/submission.py (CRLF line endings)\n")
    assert changed_lines(out) == [line for line in changed_lines(out) if "BLOCK_N=" in line]
    assert any(line.startswith("-") and "BLOCK_N=99" in line for line in changed_lines(out))
    assert "\r" not in out


def test_only_line_endings_differ_says_so(built):
    built.write_bytes(built.read_bytes().replace(b"\n", b"\r\n"))
    code, out = gen("build", "--diff")
    assert code == 1
    assert out.splitlines() == ["--- a/build/a/submission.py (CRLF line endings)",
                                "+++ b/build/a/submission.py", "# only the line endings differ"]


def test_missing_final_newline_does_not_run_two_lines_together(built):
    built.write_text(built.read_text().rstrip("\n"))
    code, out = gen("build", "--diff")
    assert code == 1
    assert "(no newline at end of file)" in out.splitlines()[0]
    assert changed_lines(out) == []


def test_old_file_escape_codes_and_line_separators_are_printed_escaped(built):
    text = built.read_text()
    hostile = "# \x1b[2J\x1b]0;owned\x07 \u202e \x0c \x85 \u2028 tail\n"
    built.write_text(text.replace("import torch\n", "import torch\n" + hostile, 1))
    code, out = gen("build", "--diff")
    assert code == 1
    assert not any(c in out for c in "\x1b\x07\u202e\x0c\x85\u2028\r")
    assert changed_lines(out) == [
        "-# \\x1b[2J\\x1b]0;owned\\x07 \\u202e \\x0c \\x85 \\u2028 tail"]
