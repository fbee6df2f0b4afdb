"""Which candidate, if any, replaces a shape's entry.

The fastest candidate that passed every stage (by mean time, the figure the
leaderboard ranks) replaces the current entry only when it beats it beyond
`gen bench --compare`'s noise (generator/results/compare.py noise_us: three combined standard errors,
the larger within-run drift, the run-to-run floor). A candidate that failed,
was rejected, filtered or skipped has no time and never wins. An entry whose
own measurement failed is replaced by the fastest passing candidate; one that
was never measured here (skipped, e.g. gluon under --interpret) is kept.

That first decision reads the records, which are evidence, not orders: a
line may come from another run, another day or a hand that forged it. It only
picks which candidate to try. A replacement stands only when re-measuring,
in this run, the winner and the current entry (one process, one clock, one
after the other) decides the same way (confirm).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from generator.results.compare import noise_us
from generator.tune.records import OK
from generator.tune.space import Candidate


@dataclass(frozen=True)
class Decision:
    tag: str
    index: int
    current: dict | None  # the current entry's record
    best: dict | None  # the fastest passing candidate's record
    best_candidate: Candidate | None
    replace: bool
    why: str


def _mean(record: dict) -> float:
    return record["timing"]["mean_us"]


def decide(tag: str, index: int, measured: list[tuple[Candidate, dict]]) -> Decision:
    """measured: (candidate, its record) for every candidate of the shape with a
    record, the current entry among them when it was measured."""
    current = next((r for c, r in measured if c.current), None)
    passing = [(c, r) for c, r in measured if r["status"] == OK and not c.current]
    best_c, best = min(passing, key=lambda cr: _mean(cr[1]), default=(None, None))
    if current is None:
        return Decision(tag, index, None, best, best_c, False, "current entry not measured")
    if current["status"] != OK:
        if best is None or current["status"] not in ("failed", "filtered"):
            return Decision(tag, index, current, best, best_c, False,
                            f"current entry {current['status']}; no candidate passed"
                            if best is None else f"current entry {current['status']}: kept")
        return Decision(tag, index, current, best, best_c, True,
                        f"current entry {current['status']} ({current['reason'][:80]})")
    if best is None:
        return Decision(tag, index, current, None, None, False, "no other candidate passed")
    a, b = current["timing"], best["timing"]
    noise = noise_us(a, b)
    change = b["mean_us"] - a["mean_us"]
    beats = -change > noise
    verdict = "beats it beyond noise" if beats else "within noise: kept"
    if change >= 0:
        verdict = "current entry is fastest"
    return Decision(tag, index, current, best, best_c, beats,
                    f"{a['mean_us']:.2f} -> {b['mean_us']:.2f} us ({change / a['mean_us']:+.1%}, "
                    f"noise ±{noise / a['mean_us']:.1%}): {verdict}")


def confirm(first: Decision, fresh: list[tuple[Candidate, dict]]) -> Decision:
    """The decision on this run's re-measurements of first's winner and current
    entry (fresh: each with its new record); what the records said only led here."""
    if len(fresh) < 2:
        return dataclasses.replace(first, replace=False,
                                   why="not re-measured (time limit): run again to confirm")
    again = decide(first.tag, first.index, fresh)
    return dataclasses.replace(again, why=f"re-measured: {again.why}")
