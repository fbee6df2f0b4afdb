"""Two timing results side by side: per shape, the change of the mean time and
whether it is beyond run-to-run noise (`gen compare`, `gen bench --compare`,
and `gen tune`'s decision use the same rule).

Noise per shape: three combined standard errors of the two means, plus the
larger within-run drift (first half against second half of each run's
samples), plus the run-to-run floor measured across machine instances, capped
at NOISE_CAP of the earlier mean: a change of that size is never called noise,
however noisy a file says its runs were. A figure a result does not hold (an
imported leaderboard report has no drift) counts as zero.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

# Between runs on different machine instances the same build moved by up to
# 1.6% on the steady (large) shapes: three H200 runs of 2026-11-30 (PERF.md).
RUN_TO_RUN_FLOOR = 0.02
# No noise estimate may hide a change of half the earlier time (a 1.5x
# slowdown, a 5x one, ...): at most this fraction of the earlier mean.
NOISE_CAP = 0.5


def noise_us(a: dict, b: dict) -> float:
    """How far two timings (Timing as a dict: mean_us, sem_us, drift) may differ
    by noise alone, in us, relative to a's mean (see the module's docstring)."""
    sem_a, sem_b = a.get("sem_us") or 0.0, b.get("sem_us") or 0.0
    drift = max(a.get("drift") or 0.0, b.get("drift") or 0.0)
    noise = 3 * math.hypot(sem_a, sem_b) + (drift + RUN_TO_RUN_FLOOR) * a["mean_us"]
    return min(noise, NOISE_CAP * a["mean_us"])


@dataclass(frozen=True)
class Change:
    """One shape of two results: its old and new mean (None where that result
    has no timing for it), the noise, and the verdict."""

    shape: str
    old_us: float | None
    new_us: float | None
    noise_us: float | None
    verdict: str  # same, regression, improvement, failed in new, failed in old, only in new, ...

    @property
    def relative(self) -> float | None:
        if self.old_us is None or self.new_us is None:
            return None
        return (self.new_us - self.old_us) / self.old_us

    def line(self) -> str:
        if self.relative is None:
            return f"{self.shape}: {self.verdict}"
        shown = {"same": "same (within noise)", "regression": "REGRESSION",
                 "improvement": "improvement"}[self.verdict]
        return (f"{self.shape}: {self.old_us:.2f} -> {self.new_us:.2f} us "
                f"({self.relative:+.1%}, noise ±{self.noise_us / self.old_us:.1%}): {shown}")


def _status(result: dict) -> dict[str, dict]:
    return {r["shape"]: r for r in result["rows"]}


def changes(new: dict, old: dict) -> list[Change]:
    """Every shape of either result (new's order, then old's own), with its verdict."""
    new_rows, old_rows = _status(new), _status(old)
    out = []
    for shape in list(new_rows) + [s for s in old_rows if s not in new_rows]:
        n, o = new_rows.get(shape), old_rows.get(shape)
        n_ok = n is not None and n.get("status", "ok") == "ok"
        o_ok = o is not None and o.get("status", "ok") == "ok"
        n_us = n["queued"]["mean_us"] if n_ok else None
        o_us = o["queued"]["mean_us"] if o_ok else None
        if n_ok and o_ok:
            a, b = o["queued"], n["queued"]
            noise = noise_us(a, b)
            change = b["mean_us"] - a["mean_us"]
            verdict = "same"
            if abs(change) > noise:
                verdict = "regression" if change > 0 else "improvement"
            out.append(Change(shape, o_us, n_us, noise, verdict))
            continue
        if n is None:
            verdict = "only in the old result" + (" (failed there)" if not o_ok else "")
        elif o is None:
            verdict = "only in the new result" + (" (failed there)" if not n_ok else "")
        elif not n_ok and not o_ok:
            verdict = "failed in both"
        elif not n_ok:
            verdict = "FAILED in the new result"
        else:
            verdict = "failed in the old result, passes in the new"
        out.append(Change(shape, o_us, n_us, None, verdict))
    return out


def compare(new: dict, old: dict) -> list[str]:
    """Lines naming each shape the two results share, with its change and verdict
    (`gen bench --compare`)."""
    return [c.line() for c in changes(new, old) if c.relative is not None]


def geomean(values) -> float | None:
    values = [v for v in values if v]
    return math.exp(statistics.fmean(math.log(v) for v in values)) if values else None


def shared_geomeans(new: dict, old: dict) -> tuple[float, float, int] | None:
    """The geometric means of both results over the shapes both timed, and how
    many; None when they share none."""
    pairs = [(c.old_us, c.new_us) for c in changes(new, old) if c.relative is not None]
    if not pairs:
        return None
    return geomean(o for o, _ in pairs), geomean(n for _, n in pairs), len(pairs)
