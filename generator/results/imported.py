"""A parsed popcorn-cli report (popcorn.py) as the JSON `gen bench --json` writes,
so that `gen compare` and `gen plot` read leaderboard numbers as local ones.

What the report gives is filled in: per shape the mean, its standard error
(sem_us), the best (min_us) and worst (max_us) time, in microseconds; the GPU
and torch the runner reported. What it does not give is null: median, run
count, drift, idle time, the floor, % of HBM. A shape that failed is a row with
"status": "failed", its error, and no timing; the run's geomean is then null
(the leaderboard scores a run only when every shape passes). Given the spec
the submission was built from, each row also names its runner, backend and KV
format, and the result records the spec and its hash (as gen bench does), so
that `gen status` can say which entries a leaderboard run timed.
"""

from __future__ import annotations

from pathlib import Path

from generator.core.contract import KV_ROW_BYTES
from generator.errors import UserError
from generator.results.compare import geomean
from generator.results.popcorn import SECTIONS, Report

SOURCE = "popcorn-cli"
_SECTION_OF = {mode: name for name, mode in SECTIONS.items()}


def _runners(spec_path: str | Path) -> tuple[dict, str, str]:
    """(key -> runner of the spec's plan, the fallback runner, spec hash)."""
    from generator.core.planner import build_plan
    from generator.core.render import inputs_hash
    from generator.core.spec import load_spec

    spec = load_spec(spec_path)
    plan = build_plan(spec)
    return {r.key: r for r in plan.runners}, plan.fallback, inputs_hash(spec)


def _row(block, runner) -> dict:
    ok = block.error is None
    kv_bytes = None
    if runner is not None and runner.kv_format in KV_ROW_BYTES:
        kv_bytes = block.key[0] * block.key[1] * KV_ROW_BYTES[runner.kv_format]
    return {
        "shape": block.tag,
        "status": "ok" if ok else "failed",
        "spec_line": block.spec,
        "runner": runner.name if runner else None,
        "backend": runner.backend if runner else None,
        "kv_format": runner.kv_format if runner else None,
        "kv_bytes": kv_bytes,
        "queued": {
            "mean_us": block.mean_us, "median_us": None, "min_us": block.best_us,
            "max_us": block.worst_us, "runs": None, "sem_us": block.err_us, "drift": None,
        } if ok else None,
        "idle": None,
        "gbps": kv_bytes / (block.mean_us * 1e3) if ok and kv_bytes else None,
        "pct_hbm": None,
        "floor_us": None,
        "over_floor": None,
        "baselines_us": {},
        "baselines_rel_err": {},
        "lb_fail_fraction": None,
        "error": block.error,
    }


def to_result(report: Report, shown: str, mode: str | None = None,
              spec_path: str | None = None) -> dict:
    """The bench-shaped result of one run of the report: the first public run
    holding the chosen section (mode: benchmark -> "Benchmarks", leaderboard ->
    "Ranked Benchmark"; default the ranked one where the report has it)."""
    runs = [r for r in report.runs if r.sections]
    run, rows = None, []
    if runs:
        names = {name for r in runs for name in r.sections}
        if mode is None:
            mode = "leaderboard" if "Ranked Benchmark" in names else "benchmark"
        name = _SECTION_OF[mode]
        holding = [r for r in runs if name in r.sections]
        if not holding:
            raise UserError(f"{shown}: no {name!r} section for --mode {mode} (the report has: "
                            f"{', '.join(sorted(names))})")
        run = next((r for r in holding if not r.secret), holding[0])
        by_key, fallback, spec_hash = _runners(spec_path) if spec_path else ({}, None, None)
        rows = [_row(b, by_key.get(b.key, fallback)) for b in run.sections[name]]
    elif report.scores:
        if mode == "benchmark":
            raise UserError(f"{shown}: only leaderboard scores, no benchmark timings "
                            "(--mode benchmark)")
        mode = "leaderboard"
        spec_hash = _runners(spec_path)[2] if spec_path else None
    elif report.form == "summary":
        raise UserError(f"{shown}: only popcorn-cli's summary of the runs, with no score (a "
                        "score comes with leaderboard runs) and no per-shape timings; those are "
                        "in the full report (the Discord bot's message, or popcorn-cli's output "
                        "before its background submissions): import that")
    else:
        failed = [s for r in report.runs for s in r.status if s.startswith("❌")]
        if failed:
            raise UserError(f"{shown}: no benchmark results: the run reports "
                            f"{'; '.join(dict.fromkeys(failed))}")
        raise UserError(f"{shown}: no benchmark results found: expected what `popcorn-cli submit "
                        "--mode benchmark|leaderboard` prints (a 'Benchmarks' or 'Ranked "
                        "Benchmark' section, or 'Geomean score' lines with the runs' summary)")
    failed = [r["shape"] for r in rows if r["status"] == "failed"]
    mean = geomean(r["queued"]["mean_us"] for r in rows if r["status"] == "ok")
    public = [s for s in report.scores if s.label == "public"] or list(report.scores)
    if not rows and public:
        mean = public[0].score_us
    system = run.system if run else {}
    return {
        "source": SOURCE,
        "report": shown,
        "mode": mode,
        "run": run.title if run and run.title else None,
        "spec": str(spec_path) if spec_path else None,
        "spec_hash": spec_hash,
        "commit": None,
        "date": None,
        "device": system.get("gpu") or (public[0].runner if public else None),
        "torch": system.get("torch"),
        "runtime": system.get("runtime"),
        "triton": None,
        "python": None,
        "l2_clear_mib": None,
        "hbm_copy_gbps": None,
        "empty_launch_us": None,
        "not_run": [],
        "failed": failed,
        "rows": rows,
        "geomean_us": None if failed else mean,
        "geomean_idle_us": None,
        "geomean_floor_us": None,
        "geomean_baselines_us": {},
        "baselines_not_run": {},
        "scores_us": [{"label": s.label, "runner": s.runner, "score_us": s.score_us}
                      for s in report.scores],
    }
