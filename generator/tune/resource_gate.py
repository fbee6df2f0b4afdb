"""The pre-GPU filter of `gen tune`: the resource report's verdict on a candidate.

The resource report (`gen resources`, compiling each Triton launch ahead of
time for the target and reporting registers and spills) is being added on
another branch. Once merged it provides a module RESOURCE_MODULE with

    def candidate_verdict(spec, source: str) -> str | None

which compiles `source` (the candidate's one-shape submission, built from
`spec`) for the spec's target and returns why the candidate must not run
(e.g. "mla_b4_kv1024_split16 spills 24 registers on sm90") or None.
Until that module exists this hook passes every candidate (a no-op); wiring
it in is providing that function. A candidate it refuses is recorded as
`filtered` and never reaches a GPU.
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
