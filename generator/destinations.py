"""Files a long command writes at its end (gen check, bench and tune's JSON,
plots, records), checked before anything is measured.

A run can take minutes or hours; a destination that cannot be written (a
folder, a path under a file, a folder without write permission, a read-only
file system) must fail at the start, not after the measurements. Write
permission is probed by creating a file, not read from the mode bits: that
also holds for root (as CI runs) and for read-only mounts.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from generator.core.safety import printable
from generator.errors import UserError


def _why(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def check_destination(path: Path, option: str) -> None:
    """Refuse a file that could not be written (created, appended to or
    replaced) at the end of a run. Creates the missing parent folders, as the
    write would; changes no existing file."""
    shown = f"{option} {printable(str(path))}"
    if path.is_dir():
        raise UserError(f"{shown}: is a folder; give a file name")
    if path.exists() and not path.is_file():
        raise UserError(f"{shown}: is not a regular file")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            with open(path, "a", encoding="utf-8"):
                pass
        else:
            probe_folder(path.parent)
    except OSError as exc:
        raise UserError(f"{shown}: cannot write there ({_why(exc)}); nothing was "
                        "measured") from None


def probe_folder(folder: Path) -> None:
    """Create and remove a file in folder (OSError when that is impossible)."""
    fd, name = tempfile.mkstemp(prefix=".gen-", suffix=".probe", dir=folder)
    os.close(fd)
    os.unlink(name)
