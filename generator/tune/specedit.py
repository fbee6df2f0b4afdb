"""Spec text in, spec text out: the entries of a spec changed in place.

ruamel.yaml's round trip keeps comments, key order, flow or block style and
quoting; a spec whose unchanged text does not come back byte for byte is
refused rather than rewritten. Both a candidate's spec text (which the spec
checker then parses) and the final write-back go through edit_entries, so
what is written is exactly what was checked.
"""

from __future__ import annotations

import difflib
import io
import os
import stat
from pathlib import Path
from typing import Any

from generator.core.emit import write_atomic
from generator.core.safety import printable
from generator.core.spec import EntrySpec, yaml_roundtrip
from generator.errors import UserError
from generator.destinations import probe_folder

# Keys of an entry that say what it is, not how it runs: never touched
# (`deterministic` is a declaration about the entry, kept across a retune).
_KEEP = ("batch", "kv_len", "q_seq_len", "num_heads", "tune", "deterministic")
# The keys an edit may set or remove: backend and every tuning field.
_TUNING = tuple(name for name in EntrySpec.model_fields if name not in _KEEP)


def _yaml():
    yaml = yaml_roundtrip()
    yaml.width = 1 << 16  # never re-wrap a long flow mapping
    return yaml


def _dump(doc) -> str:
    out = io.StringIO()
    _yaml().dump(doc, out)
    return out.getvalue()


def check_round_trip(text: str, path: str) -> None:
    """Refuse a spec that ruamel.yaml would not write back unchanged."""
    if _dump(_yaml().load(text)) != text:
        raise UserError(f"{path}: this spec does not survive a YAML round trip byte for byte "
                        "(aliases or unusual layout), so gen tune will not rewrite it; edit "
                        "it by hand or simplify its layout")


def edit_entries(text: str, changes: dict[int, dict[str, Any]]) -> str:
    """text with each shapes[i] entry's backend and tuning fields replaced by
    changes[i] (keys kept in place where they stay, new ones appended, the
    shape's key and its `tune:` untouched)."""
    doc = _yaml().load(text)
    for index, fields in changes.items():
        entry = doc["shapes"][index]
        for name in [k for k in entry if k in _TUNING and k not in fields]:
            del entry[name]
        for name, value in fields.items():
            same = (name in entry and entry[name] == value
                    and isinstance(entry[name], bool) == isinstance(value, bool))
            if not same:  # an equal value keeps its spelling (6.0 vs 6.00)
                entry[name] = value
    return _dump(doc)


def spec_diff(old: str, new: str, path: str) -> str:
    return "".join(difflib.unified_diff(old.splitlines(keepends=True),
                                        new.splitlines(keepends=True),
                                        fromfile=f"a/{path}", tofile=f"b/{path}"))


def spec_file(path: Path) -> Path:
    """The file a spec path names: a symbolic link is followed to its target,
    which is what a write-back replaces (the link stays a link)."""
    return Path(os.path.realpath(path))


def check_spec_writable(path: Path) -> None:
    """Refuse, before anything is measured, a spec the write-back could not
    replace: a read-only file (no write permission for its owner: a spec
    marked read-only is not rewritten, even by root) or one in a folder
    where no file can be created."""
    target = spec_file(path)
    shown = printable(str(path))
    via = f" (a link to {printable(str(target))})" if os.path.islink(path) else ""
    mode = stat.S_IMODE(target.stat().st_mode)
    why = ("read-only" if not mode & stat.S_IWUSR
           else None if os.access(target, os.W_OK) else "not writable by this user")
    if why:
        raise UserError(f"{shown}{via}: {why} (mode {mode:04o}), and gen tune rewrites the "
                        "spec it tunes; make it writable (chmod u+w) or tune a copy; nothing "
                        "was measured")
    try:
        probe_folder(target.parent)
    except OSError as exc:
        raise UserError(f"{shown}{via}: its folder {printable(str(target.parent))} is not "
                        f"writable ({exc.strerror or type(exc).__name__}), and the write-back "
                        "replaces the file there; nothing was measured") from None


def write_spec(path: Path, expected_old: str, new: str) -> None:
    """Replace the spec atomically (temp file + rename), only if it still holds
    the text the run started from. Through a symbolic link the link's target
    is replaced; the file keeps its mode."""
    target = spec_file(path)
    if target.read_text(encoding="utf-8") != expected_old:
        raise UserError(f"{printable(str(path))}: changed on disk during the run; not "
                        "rewritten (the records keep every measurement: run gen tune again)")
    write_atomic(target, new, mode=stat.S_IMODE(target.stat().st_mode))
