"""The pre-GPU filter of `gen tune`: the resource report's verdict on a candidate.

The resource report (`gen resources`, compiling each Triton and Gluon launch
ahead of time for the target) provides, in RESOURCE_MODULE,

    def candidate_verdict(spec, source: str) -> str | None

which compiles `source` (the candidate's one-shape submission, built from
`spec`) for the spec's target and returns why the candidate must not run
(a keyed kernel that spills or has serialised wgmmas without its entry's
waiver) or None. Where that module cannot be imported (an install without
the resources package) this hook passes every candidate. A candidate it
refuses is recorded as `filtered` and never reaches a GPU. Interpreter runs
skip it (generator/tune/measure.py).
"""

from __future__ import annotations

import importlib
import importlib.util

RESOURCE_MODULE = "generator.resources.tune_gate"


def _available(name: str) -> bool:
    """Whether the module exists, without importing it (nor failing on a
    missing parent package)."""
    parent, _, _ = name.rpartition(".")
    if parent and not _available(parent):
        return False
    return importlib.util.find_spec(name) is not None


def resource_verdict(spec, source: str) -> str | None:
    """Why the resource report refuses this candidate, or None (always None
    while RESOURCE_MODULE is absent)."""
    if not _available(RESOURCE_MODULE):
        return None
    return importlib.import_module(RESOURCE_MODULE).candidate_verdict(spec, source)
