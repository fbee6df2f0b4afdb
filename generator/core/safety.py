"""Rules that keep a hostile or broken spec from escaping its sandbox.

Specs arrive in pull requests and CI builds them, so everything a spec can
put into a path or into generated code is checked or escaped here, in one
place:

- target names are identifiers (TARGET_NAME_RE), so build/<name>/submission.py
  cannot leave the build folder, and every output path is resolved and must
  stay inside it (output_path);
- header lines use a documented character set (HEADER_RE): printable ASCII,
  no control characters (Python also breaks lines at \\r);
- no source encoding declaration (PEP 263) can reach the generated file's
  first two lines, where Python would decode the file's bytes with it (a
  header line or the spec's path saying `coding: raw_unicode_escape` turns an
  escaped newline in a string into code): header lines and the path are
  checked (encoding_declaration), and the rendered bytes must decode as UTF-8
  and compile to the tree of the text (source_bytes_problem);
- environment variables come from a short list per platform
  (registry.ENV_NAMES) with short values of a plain character set
  (ENV_VALUE_RE);
- keys are text: a YAML key read as a boolean or a number cannot collide with
  the string key it prints as (plain_bounded);
- the YAML loader is bounded: file size (MAX_SPEC_BYTES), nodes after alias
  expansion (MAX_NODES) and nesting depth (MAX_DEPTH);
- text that reaches generated code goes through a filter made for its
  context: py_str (a Python string literal), comment (one comment line),
  docstring (text inside a triple-quoted docstring).
"""

from __future__ import annotations

import ast
import errno
import io
import os
import re
import stat
import tokenize
from pathlib import Path
from typing import Any

# build/<name>/submission.py: a letter, then letters, digits or underscores;
# at most 64 characters. No dots, slashes or empty names.
TARGET_NAME_PATTERN = r"[A-Za-z][A-Za-z0-9_]{0,63}"
TARGET_NAME_RE = re.compile(TARGET_NAME_PATTERN)

# A header line: '#!' then printable ASCII (space to '~'); at most 200 characters.
HEADER_PATTERN = r"#![\x20-\x7e]{0,198}"
HEADER_RE = re.compile(HEADER_PATTERN)

# PEP 263 (and the tokenizer's cookie_re): a comment in line 1 or 2 matching
# this declares the file's source encoding.
ENCODING_DECLARATION_RE = re.compile(r"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.ASCII)

# An environment value a spec may set: the runtime knobs of registry.ENV_NAMES
# take numbers and short words. No quotes, backslashes, spaces or line breaks.
ENV_VALUE_RE = re.compile(r"[A-Za-z0-9_.,:+-]{1,64}")
ENV_VALUE_WHAT = "1 to 64 of the characters A-Z a-z 0-9 _ . , : + -"

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


def encoding_declaration(line: str) -> str | None:
    """The source encoding `line` would declare as line 1 or 2 of a Python
    file (PEP 263), or None. Header lines are comments already; any other text
    is checked as the rest of a comment line."""
    text = line if line.lstrip(" \t\f").startswith("#") else "# " + line
    match = ENCODING_DECLARATION_RE.match(text)
    return match.group(1) if match else None


def encoded_as_utf8_problem(source: str) -> str | None:
    """Why Python would not decode the UTF-8 bytes of `source` as UTF-8, or
    None: by its own rule (tokenize.detect_encoding), a source encoding
    declared in the first two lines (PEP 263) wins."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source.encode("utf-8")).readline)
    except SyntaxError as exc:
        return f"its first lines declare a source encoding Python refuses ({exc.msg})"
    if encoding not in ("utf-8", "utf-8-sig"):
        return (f"its first lines declare the source encoding {encoding!r}: Python would "
                "not read it as the UTF-8 text it is")
    return None


def source_bytes_problem(source: str, tree: ast.Module | None = None) -> str | None:
    """Why the UTF-8 bytes of `source` would not run as the text reads, or None.

    Python decodes a file with the encoding its first two lines declare, and
    what `ast.parse(source)` sees is not then what an import runs. The bytes
    must decode as UTF-8 (encoded_as_utf8_problem) and compile to the same
    syntax tree as the text (`tree`, when given: the parsed text; else parsed
    here)."""
    problem = encoded_as_utf8_problem(source)
    if problem:
        return problem
    data = source.encode("utf-8")
    try:
        from_bytes = compile(data, "<submission>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
        from_text = tree if tree is not None else ast.parse(source)
    except (SyntaxError, ValueError) as exc:
        return f"it does not compile: {exc}"
    if ast.dump(from_bytes) != ast.dump(from_text):
        return "its bytes compile to another program than its text"
    return None


def valid_env_value(value: str) -> bool:
    return ENV_VALUE_RE.fullmatch(value) is not None


def plain_bounded(node: Any, non_text_keys: list[tuple] | None = None) -> Any:
    """ruamel's commented containers as plain dicts and lists, counting every
    node as aliases expand: a YAML alias bomb (a few hundred bytes that expand
    to 10^8 nodes) or a self-referencing alias stops with LimitExceeded.

    Keys must be text: a key YAML reads as another type (`true`, `1`, `null`)
    is left out and its location (the keys and indices leading to it, then
    the key) appended to non_text_keys, so that `{"True": a, true: b}` cannot
    pass as one key."""
    budget = [MAX_NODES]
    found = non_text_keys if non_text_keys is not None else []

    def walk(n: Any, depth: int, line: int, loc: tuple) -> Any:
        budget[0] -= 1
        if budget[0] < 0:
            raise LimitExceeded(f"more than {MAX_NODES} values after expanding aliases", line)
        if depth > MAX_DEPTH:
            raise LimitExceeded(f"nested deeper than {MAX_DEPTH} levels", line)
        if isinstance(n, dict):
            return mapping(n, lambda k: walk(n[k], depth + 1, line, loc + (k,)), loc)
        if isinstance(n, list):
            return [walk(v, depth + 1, line, loc + (i,)) for i, v in enumerate(n)]
        return n

    def mapping(n: dict, value, loc: tuple) -> dict:
        out = {}
        for k in n:
            if isinstance(k, str):
                out[k] = value(k)
            else:
                found.append(loc + (k,))
        return out

    if isinstance(node, dict) and hasattr(node, "lc"):
        # Blame the top-level key whose value explodes.
        return mapping(node, lambda k: walk(node[k], 1, node.lc.key(k)[0] + 1, (k,)), ())
    return walk(node, 0, 1, ())


class NotRegularFile(OSError):
    """A path that names a FIFO, a socket or a device, where a file is expected."""


_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"))


def read_regular_file(path: Path, limit: int | None = None) -> bytes:
    """The bytes of a regular file (at most `limit` + 1 of them when given).

    Never blocks: the file is opened without waiting (a FIFO would wait for a
    writer forever) and its kind is checked on the open descriptor. Raises
    FileNotFoundError, IsADirectoryError, NotRegularFile, or OSError (a loop
    of symbolic links: ELOOP)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "is a folder", str(path))
        if not stat.S_ISREG(mode):
            kind = next((what for test, what in _KINDS if test(mode)), "not a regular file")
            raise NotRegularFile(errno.EINVAL, f"it is {kind}, not a regular file", str(path))
        with os.fdopen(os.dup(fd), "rb") as f:
            return f.read() if limit is None else f.read(limit + 1)
    finally:
        os.close(fd)


def read_spec_bytes(path: Path) -> bytes:
    """The file's bytes; raises ValueError when it exceeds MAX_SPEC_BYTES
    (read at most one byte more than the bound, whatever the file's size),
    OSError as read_regular_file does."""
    data = read_regular_file(path, MAX_SPEC_BYTES)
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
    ValueError when the resolved path is not inside the resolved build folder,
    or when resolving it meets a loop of symbolic links."""
    given = build_dir / name / "submission.py"
    try:
        root = build_dir.resolve()
        path = given.resolve()
    except (RuntimeError, OSError) as exc:
        # Python before 3.13 raises RuntimeError on a loop, 3.13 OSError (ELOOP)
        if isinstance(exc, OSError) and exc.errno != errno.ELOOP:
            raise
        raise ValueError(f"{printable(given.as_posix())} goes through a loop of symbolic links "
                         "(remove the link)") from None
    if not path.is_relative_to(root) or path.parent == root:
        raise ValueError(f"{path} is outside the build folder {root}")
    return path
