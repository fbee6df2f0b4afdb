"""Thirty-first session: every program's stamps and SM (the nineteenth
session's rawtl.py) for the timeline build as it is, or with mkremap.py's
renumbering (RAW_REMAP=remap or near) applied to its source.

    python3 perf/run-2026-12-02-thirtyfirst/raw31.py OUT_DIR specs/h200.yaml b64_kv8192 ...

The stamps stay indexed by the hardware's program ids; the row a program
served follows from mkremap.py's mapping.
"""

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[0] / "run-2026-12-01-nineteenth"))
sys.path.insert(0, str(HERE))

import mkremap  # noqa: E402
import rawtl  # noqa: E402

_source = rawtl.source


def source(spec_path, tags):
    plan, text = _source(spec_path, tags)
    mode = os.environ.get("RAW_REMAP", "")
    if mode:
        assert text.count(mkremap.OLD) == 1, "the kernel's program ids changed: update mkremap.py"
        text = text.replace(mkremap.OLD, mkremap.NEAR if mode == "near" else mkremap.NEW)
    return plan, text


rawtl.source = source

if __name__ == "__main__":
    rawtl.main()
