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
from pathlib import Path
from typing import Any

from generator.core.emit import write_atomic
from generator.core.spec import EntrySpec, yaml_roundtrip
from generator.errors import UserError

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


def write_spec(path: Path, expected_old: str, new: str) -> None:
    """Replace the spec atomically (temp file + rename), only if it still holds
    the text the run started from."""
    if path.read_text(encoding="utf-8") != expected_old:
        raise UserError(f"{path}: changed on disk during the run; not rewritten (the records "
                        "keep every measurement: run gen tune again)")
    write_atomic(path, new)
