"""Where `gen tune` keeps its records by default (the destinations it writes
are checked by generator.destinations before anything is measured)."""

from __future__ import annotations

import os
from pathlib import Path


def records_home() -> Path:
    """The default folder of the records: $XDG_CACHE_HOME/mla-gen/tune, or
    ~/.cache/mla-gen/tune (outside any checkout, so that a pull request
    cannot plant records)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    return root / "mla-gen" / "tune"
