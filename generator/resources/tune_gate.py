"""The resource report's verdict on a `gen tune` candidate (generator/tune/resource_gate.py).

A candidate whose keyed kernel spills, or whose wgmmas ptxas serialises, on
the target breaks the same CI rule `gen resources --check` enforces; the tuner
records it as filtered instead of spending GPU time on it. Compiled with the
installed Triton: the one that would run the candidate.
"""

from __future__ import annotations

from pathlib import Path

from generator.resources.report import build_report, default_jobs, triton_version, violations


def candidate_verdict(spec, source: str) -> str | None:
    """Why the candidate must not run (its rule violations, joined), or None."""
    report = build_report(spec, Path(f"{spec.target.name}-candidate.py"), source,
                          jobs=default_jobs(), installed=triton_version())
    problems = violations(report)
    return "; ".join(problems) if problems else None
