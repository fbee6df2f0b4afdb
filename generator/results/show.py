"""Tables of timing results for the terminal: an imported report (`gen results
import`) and the per-shape changes between two results (`gen compare`)."""

from __future__ import annotations

import sys

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from generator.core import safety
from generator.results.compare import changes, shared_geomeans


def _console() -> Console:
    return Console(width=None if sys.stdout.isatty() else 200, highlight=False)


def _us(value) -> str:
    return "-" if value is None else f"{value:.2f}"


def _text(value) -> str:
    """Text from a result file, shown as data: control characters escaped, no
    rich markup."""
    return escape(safety.printable_line(str(value))) if value is not None else "-"


def describe(result: dict) -> str:
    """One line: where a result comes from."""
    parts = [result.get("source") or "gen bench", result.get("mode") or ""]
    if result.get("device"):
        parts.append(f"on {result['device']}")
    if result.get("spec"):
        parts.append(f"spec {result['spec']}")
    if result.get("commit"):
        parts.append(f"commit {result['commit']}")
    return _text(" ".join(p for p in parts if p))


def print_result(result: dict) -> None:
    """An imported report's rows (shape, mean, error, best, worst) and its geomean."""
    table = Table(title=describe(result))
    for col in ("shape", "backend", "mean us", "± us", "best us", "worst us", "status"):
        table.add_column(col, justify="left" if col in ("shape", "backend", "status") else "right")
    for row in result["rows"]:
        q = row["queued"] or {}
        status = "ok" if row["status"] == "ok" else f"FAILED: {row.get('error') or ''}"[:80]
        table.add_row(row["shape"], _text(row.get("backend")), _us(q.get("mean_us")),
                      _us(q.get("sem_us")), _us(q.get("min_us")), _us(q.get("max_us")),
                      _text(status))
    console = _console()
    if result["rows"]:
        console.print(table)
    for score in result.get("scores_us", []):
        console.print(f"leaderboard score ({score['label']}) on {_text(score['runner'])}: "
                      f"{score['score_us']:.2f} us")
    if result.get("failed"):
        console.print(f"failed: {', '.join(result['failed'])} (no geomean)")
    elif result.get("geomean_us"):
        console.print(f"geomean {result['geomean_us']:.2f} us over {len(result['rows'])} shapes"
                      if result["rows"] else f"geomean {result['geomean_us']:.2f} us")


def print_changes(new: dict, old: dict, old_name: str, new_name: str) -> None:
    """Per shape: both means, the change, the noise and the verdict; then the
    geometric means over the shapes both results timed."""
    table = Table(title=f"{_text(old_name)} -> {_text(new_name)}")
    for col in ("shape", "old us", "new us", "change", "noise", "verdict"):
        table.add_column(col, justify="left" if col in ("shape", "verdict") else "right")
    for c in changes(new, old):
        rel = c.relative
        verdict = {"same": "same (within noise)", "regression": "REGRESSION",
                   "improvement": "improvement"}.get(c.verdict, c.verdict)
        style = {"regression": "red", "improvement": "green"}.get(c.verdict)
        table.add_row(c.shape, _us(c.old_us), _us(c.new_us),
                      "-" if rel is None else f"{rel:+.1%}",
                      "-" if c.noise_us is None else f"±{c.noise_us / c.old_us:.1%}",
                      f"[{style}]{verdict}[/{style}]" if style else verdict)
    console = _console()
    console.print(f"old: {describe(old)}")
    console.print(f"new: {describe(new)}")
    console.print(table)
    means = shared_geomeans(new, old)
    if means is None:
        console.print("no shape timed in both results")
        return
    a, b, n = means
    console.print(f"geomean over the {n} shapes both timed: {a:.2f} -> {b:.2f} us "
                  f"({(b - a) / a:+.1%})")
