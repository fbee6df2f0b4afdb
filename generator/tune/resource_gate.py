"""The pre-GPU filter of `gen tune`: the resource report's verdict on a candidate.

The resource report (`gen resources`, compiling each Triton and Gluon launch
ahead of time for the target) provides, in generator/resources/tune_gate.py,

    def candidate_verdict(spec, source: str) -> str | None

which compiles `source` (the candidate's one-shape submission, built from
`spec` for the spec's own target, not for this machine) and returns why the
candidate must not run (a keyed kernel that spills or has serialised wgmmas
without its entry's waiver) or None. It runs in every mode, --interpret
included: a candidate it refuses is recorded as `filtered`, never reaches a
GPU and never wins. It needs no GPU (the compile is ahead of time) but does
need torch and triton, which every mode of gen tune needs anyway.
"""

from __future__ import annotations


def resource_verdict(spec, source: str) -> str | None:
    """Why the resource report refuses this candidate, or None."""
    from generator.resources.tune_gate import candidate_verdict

    return candidate_verdict(spec, source)
