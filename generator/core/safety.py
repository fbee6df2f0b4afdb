"""Rules that keep a hostile or broken spec from escaping its sandbox.

Specs arrive in pull requests and CI builds them, so everything a spec can
put into a path or into generated code is checked or escaped here, in one
place:

- target names are identifiers (TARGET_NAME_RE), so build/<name>/submission.py
  cannot leave the build folder, and every output path is resolved and must
  stay inside it (output_path);
- header lines use a documented character set (HEADER_RE): printable ASCII,
  no control characters (Python also breaks lines at \\r);
- environment values may not hold a NUL byte (os.environ refuses them);
- the YAML loader is bounded: file size (MAX_SPEC_BYTES), nodes after alias
  expansion (MAX_NODES) and nesting depth (MAX_DEPTH);
- text that reaches generated code goes through a filter made for its
  context: py_str (a Python string literal), comment (one comment line),
  docstring (text inside a triple-quoted docstring).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

# build/<name>/submission.py: a letter, then letters, digits or underscores;
# at most 64 characters. No dots, slashes or empty names.
TARGET_NAME_PATTERN = r"[A-Za-z][A-Za-z0-9_]{0,63}"
TARGET_NAME_RE = re.compile(TARGET_NAME_PATTERN)

# A header line: '#!' then printable ASCII (space to '~'); at most 200 characters.
HEADER_PATTERN = r"#![\x20-\x7e]{0,198}"
HEADER_RE = re.compile(HEADER_PATTERN)

# Spec files are a few kB; the bounds are far above any real spec.
MAX_SPEC_BYTES = 1 << 20
MAX_NODES = 100_000
MAX_DEPTH = 32


class LimitExceeded(Exception):
    """The YAML document is larger or deeper than a spec may be; line is the
    1-based line of the container being expanded when the bound was hit."""

    def __init__(self, message: str, line: int | None):
        super().__init__(message)
        self.line = line


def valid_target_name(name: str) -> bool:
    return TARGET_NAME_RE.fullmatch(name) is not None


def valid_header_line(line: str) -> bool:
    return HEADER_RE.fullmatch(line) is not None


def plain_bounded(node: Any) -> Any:
    """ruamel's commented containers as plain dicts and lists, counting every
    node as aliases expand: a YAML alias bomb (a few hundred bytes that expand
    to 10^8 nodes) or a self-referencing alias stops with LimitExceeded."""
    budget = [MAX_NODES]

    def walk(n: Any, depth: int, line: int) -> Any:
        budget[0] -= 1
        if budget[0] < 0:
            raise LimitExceeded(f"more than {MAX_NODES} values after expanding aliases", line)
        if depth > MAX_DEPTH:
            raise LimitExceeded(f"nested deeper than {MAX_DEPTH} levels", line)
        if isinstance(n, dict):
            return {k if isinstance(k, str) else str(k): walk(v, depth + 1, line)
                    for k, v in n.items()}
        if isinstance(n, list):
            return [walk(v, depth + 1, line) for v in n]
        return n

    if isinstance(node, dict) and hasattr(node, "lc"):
        # Blame the top-level key whose value explodes.
        return {k if isinstance(k, str) else str(k): walk(v, 1, node.lc.key(k)[0] + 1)
                for k, v in node.items()}
    return walk(node, 0, 1)


def read_spec_bytes(path: Path) -> bytes:
    """The file's bytes; raises ValueError when it exceeds MAX_SPEC_BYTES
    (read at most one byte more than the bound, whatever the file's size)."""
    with open(path, "rb") as f:
        data = f.read(MAX_SPEC_BYTES + 1)
    if len(data) > MAX_SPEC_BYTES:
        raise ValueError(f"larger than {MAX_SPEC_BYTES // 1024} KiB (a spec is a few kB)")
    return data


# --------------------------------------------------------------------------
# Escaping for generated code (Jinja filters, see render.environment)
# --------------------------------------------------------------------------


def _escape_char(c: str) -> str:
    return c.encode("unicode_escape").decode("ascii") if c != "\\" else "\\\\"


def printable(text: str) -> str:
    """text with every character outside printable ASCII written as a Python
    escape (\\n, \\r, \\x00, \\u2028, ...) and backslashes doubled: one line, safe
    in a comment, and unambiguous to a reader."""
    return "".join(c if " " <= c <= "~" and c != "\\" else _escape_char(c) for c in str(text))


# Characters a terminal acts on or that reorder or break a shown line: C0 and
# C1 controls (tab kept), DEL, line and paragraph separators, bidi controls.
_CONTROL_RE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f"
                         "\u202a-\u202e\u2066-\u2069]")


def printable_line(text: str) -> str:
    """text with the characters a terminal would act on (escape sequences,
    carriage returns, bidi overrides) written as Python escapes: safe to print
    as one line. Other text, non-ASCII letters included, is kept as it is."""
    return _CONTROL_RE.sub(lambda m: _escape_char(m.group()), str(text))


def py_str(value: str) -> str:
    """A double-quoted Python string literal that evaluates to value: printable
    ASCII kept, quote and backslash escaped, everything else as \\x, \\u or
    \\U escapes (unlike JSON, exact for characters beyond the BMP too)."""
    if not isinstance(value, str):
        raise TypeError(f"py_str expects a str, got {type(value).__name__}")
    return '"' + printable(value).replace('"', '\\"') + '"'


def header_line(line: str) -> str:
    """A header line, re-checked at render time (the spec stage already has)."""
    if not valid_header_line(line):
        raise ValueError(f"header line {line!r} is outside the header character set")
    return line


def comment(text: str) -> str:
    """Text for the rest of one comment line: printable ASCII only."""
    return printable(text)


def docstring(text: str) -> str:
    """Text for the inside of a triple-double-quoted docstring: its value at run
    time is comment(text); every backslash and double quote is escaped, so
    nothing can close the docstring or start an escape sequence."""
    return printable(text).replace("\\", "\\\\").replace('"', '\\"')


def output_path(build_dir: Path, name: str) -> Path:
    """build_dir/name/submission.py, resolved (symlinks followed); raises
    ValueError when the resolved path is not inside the resolved build folder."""
    root = build_dir.resolve()
    path = (build_dir / name / "submission.py").resolve()
    if not path.is_relative_to(root) or path.parent == root:
        raise ValueError(f"{path} is outside the build folder {root}")
    return path
