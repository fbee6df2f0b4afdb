"""gen check's report: the table of cases, the summary per entry, the JSON and
the verdict (the exit code).

An entry (a spec shape, or the fallback) passed when all its cases did; it
failed when one did not; it is "not runnable here" when its backend cannot
run on this machine (aiter off ROCm, gluon under the interpreter). Each entry
shows its worst strict error over all its cases and seeds against its bound
(the margin), flagged when above check.THIN_MARGIN of it; whether it is
declared deterministic and how many distinct outputs its repeated calls gave;
and its CUDA graph replay.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from dataclasses import dataclass
from pathlib import Path

# Exit codes of gen check: every selected entry passed; a case failed; nothing
# failed but an entry could not be checked here (without --allow-unrunnable).
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_UNRUNNABLE = 3

PASSED, FAILED, UNRUNNABLE = "passed", "failed", "not runnable here"


@dataclass(frozen=True)
class EntrySummary:
    """One entry's verdict over its cases."""

    entry: str  # the spec's tag: b32_kv8192, fallback
    status: str  # PASSED, FAILED or UNRUNNABLE
    backend: str
    runner: str = ""  # the runner checked (an interpreter build shrinks the key)
    cases: int = 0
    failed_cases: int = 0
    # The worst strict error over its cases and seeds, its bound, their ratio.
    worst_rel_err: float | None = None
    bound: float | None = None
    margin: float | None = None
    thin_margin: bool = False
    deterministic: bool | None = None  # as declared by the spec entry
    distinct_outputs: int | None = None  # the most of any case's repeated calls
    graph: str = "not run"  # "pass" (every case), "fail" (some case), "skipped", "not run"
    why: str = ""  # why it failed (its first failed case's note) or cannot run here


@dataclass(frozen=True)
class Verdict:
    """Everything one gen check run found, for one spec."""

    spec: str
    device: str
    seeds: int
    repeats: int
    first_seed: int
    graphs: str
    cases: tuple
    entries: tuple[EntrySummary, ...]

    def with_status(self, status: str) -> list[EntrySummary]:
        return [e for e in self.entries if e.status == status]

    def exit_code(self, allow_unrunnable: bool = False) -> int:
        if self.with_status(FAILED):
            return EXIT_FAILED
        if self.with_status(UNRUNNABLE) and not allow_unrunnable:
            return EXIT_UNRUNNABLE
        return EXIT_OK


def summarize(results, entry_of: dict[str, str], order: list[str],
              unrunnable: list[tuple[str, str, str]]) -> tuple[EntrySummary, ...]:
    """One summary per entry, in `order` (then the entries that cannot run here):
    results are check.Result, entry_of maps a runner's name to its entry's tag."""
    by_entry: dict[str, list] = {tag: [] for tag in order}
    for r in results:
        by_entry.setdefault(entry_of[r.runner], []).append(r)
    out = []
    for tag, rs in by_entry.items():
        if not rs:
            continue
        failed = [r for r in rs if not r.ok]
        worst = max(rs, key=lambda r: r.margin)
        graphs = {r.graph for r in rs}
        graph = next((g for g in ("fail", "pass", "skipped") if g in graphs), "not run")
        out.append(EntrySummary(
            entry=tag, status=FAILED if failed else PASSED, backend=rs[0].backend,
            runner=rs[0].runner, cases=len(rs), failed_cases=len(failed),
            worst_rel_err=worst.rel_err, bound=worst.bound, margin=worst.margin,
            thin_margin=any(r.thin_margin for r in rs),
            deterministic=rs[0].deterministic,
            distinct_outputs=max(r.distinct_outputs for r in rs), graph=graph,
            why=f"{failed[0].case}: {failed[0].note}" if failed else "",
        ))
    out += [EntrySummary(entry=tag, status=UNRUNNABLE, backend=backend, why=why)
            for tag, backend, why in unrunnable]
    return tuple(out)


# ---------------------------------------------------------------------------
# Printing and JSON
# ---------------------------------------------------------------------------


def _console():
    from rich.console import Console

    return Console(width=None if sys.stdout.isatty() else 220, highlight=False)


def _settings(verdict: Verdict) -> str:
    seeds = f"{verdict.seeds} seed{'s' if verdict.seeds > 1 else ''} a case"
    return f"{seeds}, {verdict.repeats} call{'s' if verdict.repeats > 1 else ''} on the first seed's inputs"


def case_table(verdict: Verdict):
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"gen check: {verdict.spec} ({verdict.device}; {_settings(verdict)})")
    for col in ("case", "runner", "backend", "Q", "KV", "rel err", "bound", "margin",
                "vs LB ref", "LB fail", "|q|max/absmax", "distinct", "graph", "result"):
        table.add_column(col)
    for r in verdict.cases:
        q_ratio = "-" if r.q_absmax_ratio is None else f"{r.q_absmax_ratio:.2f}"
        note = escape(r.note)
        if r.ok:
            result = "[green]pass[/]" + (f" [yellow]{note}[/]" if note else "")
        else:
            result = f"[red]FAIL[/] {note}"
        margin = f"{r.margin:.0%}" + (" [yellow]thin[/]" if r.thin_margin else "")
        distinct = f"{r.distinct_outputs} of {r.repeats}"
        table.add_row(r.case, r.runner, r.backend, r.q_mode, r.kv_format, f"{r.rel_err:.2e}",
                      f"{r.bound:.2g}", margin, f"{r.rel_err_vs_leaderboard:.2e}",
                      f"{r.lb_fail_fraction:.2%}", q_ratio, distinct, r.graph, result)
    return table


def summary_table(verdict: Verdict):
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"gen check summary: {verdict.spec}")
    for col in ("entry", "backend", "result", "cases", "worst rel err", "bound", "margin",
                "deterministic", "graph", "why"):
        table.add_column(col)
    colour = {PASSED: "green", FAILED: "red", UNRUNNABLE: "yellow"}
    for e in verdict.entries:
        if e.status == UNRUNNABLE:
            table.add_row(e.entry, e.backend, f"[yellow]{e.status}[/]", "-", "-", "-", "-", "-",
                          "-", escape(e.why))
            continue
        margin = f"{e.margin:.0%}" + (" [yellow]thin[/]" if e.thin_margin else "")
        declared = "yes" if e.deterministic else "no (declared)"
        if e.distinct_outputs and e.distinct_outputs > 1:
            declared += f", {e.distinct_outputs} distinct outputs"
        table.add_row(e.entry, e.backend, f"[{colour[e.status]}]{e.status}[/]",
                      f"{e.cases - e.failed_cases}/{e.cases}", f"{e.worst_rel_err:.2e}",
                      f"{e.bound:.2g}", margin, declared, e.graph, escape(e.why))
    return table


def summary_lines(verdict: Verdict, thin_margin: float) -> list[str]:
    """The closing lines: counts per status, thin margins, what could not run."""
    counts = {s: len(verdict.with_status(s)) for s in (PASSED, FAILED, UNRUNNABLE)}
    lines = [f"{verdict.spec}: {len(verdict.entries)} entries: {counts[PASSED]} passed, "
             f"{counts[FAILED]} failed, {counts[UNRUNNABLE]} not runnable here "
             f"({_settings(verdict)}; CUDA graphs {verdict.graphs})"]
    for e in verdict.entries:
        if e.thin_margin:
            lines.append(f"thin margin: {e.entry}: worst strict error {e.worst_rel_err:.2e} is "
                         f"{e.margin:.0%} of its bound {e.bound:.2g} (above {thin_margin:.0%}: "
                         "another seed could fail; widen the margin or justify the bound)")
    for e in verdict.with_status(UNRUNNABLE):
        lines.append(f"not checked: {e.entry}: {e.why}")
    return lines


def to_json(verdict: Verdict, thin_margin: float) -> str:
    counts = {s: len(verdict.with_status(s)) for s in (PASSED, FAILED, UNRUNNABLE)}
    return json.dumps({
        "spec": verdict.spec,
        "device": verdict.device,
        "seeds": verdict.seeds,
        "repeats": verdict.repeats,
        "first_seed": verdict.first_seed,
        "graphs": verdict.graphs,
        "thin_margin_above": thin_margin,
        "summary": {"passed": counts[PASSED], "failed": counts[FAILED],
                    "not_runnable": counts[UNRUNNABLE]},
        "entries": [dataclasses.asdict(e) for e in verdict.entries],
        "cases": [dataclasses.asdict(r) for r in verdict.cases],
    }, indent=2)


def write_report(verdict: Verdict, json_path=None) -> None:
    """Print the case table, the summary and its closing lines; write the JSON."""
    from rich.markup import escape

    from generator.core.emit import write_atomic
    from generator.gpu.check import THIN_MARGIN

    console = _console()
    console.print(case_table(verdict))
    console.print(summary_table(verdict))
    for line in summary_lines(verdict, THIN_MARGIN):
        console.print(escape(line), soft_wrap=True)
    if json_path:
        write_atomic(Path(json_path), to_json(verdict, THIN_MARGIN) + "\n")
