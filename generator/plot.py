"""Pictures of a bench run and of a tune run, from their recorded data.

`gen bench --plot F` and `gen plot RESULT.json` (any stored result, an
imported leaderboard report too; no GPU): per shape, the build's mean time
(with its standard error) beside the floor and each baseline, the % of the
HBM rate written on the build's bar. `gen tune --plot F`: per shape, the time of every candidate
that ran, failures marked at the top, the current entry and the winner
highlighted. PNG or SVG by the file's extension. Matplotlib is an optional
extra (`pip install .[plot]`); its object API is used directly (no pyplot
state, no display needed).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from generator.core import safety
from generator.errors import UserError

FORMATS = (".png", ".svg")


def check_plot_path(path: Path, option: str = "") -> None:
    """Refuse a plot that could not be drawn (its format by extension, the
    matplotlib extra): callers check before their measurements. option: the
    command-line option that named the file (--plot), shown before it."""
    shown = f"{option} {safety.printable(str(path))}" if option else safety.printable(str(path))
    if path.suffix.lower() not in FORMATS:
        raise UserError(f"{shown}: the extension picks the format: one of {', '.join(FORMATS)}")
    if importlib.util.find_spec("matplotlib") is None:
        raise UserError("drawing needs matplotlib: pip install '.[plot]' (the plot extra)")


def _figure(path: Path, width: float, height: float):
    check_plot_path(path)
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _save(fig, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format=path.suffix.lower()[1:], dpi=120)


def plot_bench(result: dict, path: str | Path) -> Path:
    """A gen bench result (its JSON, or an imported leaderboard report's) as
    grouped bars per shape. What a result does not hold is left out: the floor
    and % of HBM when absent, a failed shape's bar (marked "failed")."""
    path = Path(path)
    rows = result["rows"]
    if not rows:
        raise UserError(f"{path}: the result holds no per-shape timing to draw")
    baselines = list(result.get("geomean_baselines_us", {}))
    floor = ["floor"] if any(r.get("floor_us") for r in rows) else []
    series = ["build"] + floor + baselines
    fig = _figure(path, max(6.0, 1.4 * len(rows) + 2), 4.5)
    ax = fig.add_subplot()
    width = 0.8 / len(series)
    colors = {"build": "tab:blue", "floor": "tab:gray"}
    for j, name in enumerate(series):
        xs, ys, errs = [], [], []
        for i, row in enumerate(rows):
            queued = row.get("queued") or {}
            if name == "build":
                value, err = queued.get("mean_us"), queued.get("sem_us") or 0.0
            elif name == "floor":
                value, err = row.get("floor_us"), 0.0
            else:
                value, err = (row.get("baselines_us") or {}).get(name), 0.0
            if value:
                xs.append(i + (j - (len(series) - 1) / 2) * width)
                ys.append(value)
                errs.append(err)
        bars = ax.bar(xs, ys, width, yerr=errs, label=name, color=colors.get(name))
        if name == "build":
            timed = [row for row in rows if (row.get("queued") or {}).get("mean_us")]
            for bar, row in zip(bars, timed):
                if row.get("pct_hbm") is None:
                    continue
                ax.annotate(f"{row['pct_hbm']:.0f}% HBM", (bar.get_x() + bar.get_width() / 2,
                                                         bar.get_height()),
                            ha="center", va="bottom", fontsize=7, rotation=90,
                            xytext=(0, 2), textcoords="offset points")
    for i, row in enumerate(rows):
        if not (row.get("queued") or {}).get("mean_us"):
            ax.annotate("failed", (i, 0), xycoords=("data", "axes fraction"), ha="center",
                        va="bottom", fontsize=8, color="tab:red", xytext=(0, 4),
                        textcoords="offset points")
    ax.set_xticks(range(len(rows)), [safety.printable_line(r["shape"]) for r in rows],
                  rotation=30, ha="right")
    ax.set_ylabel("mean time per call (us)")
    ax.set_yscale("log")
    source = result.get("source") or "gen bench"
    where = [f"{source}: {result.get('spec') or ''}", f"on {result.get('device') or '?'}",
             f"({result.get('mode') or ''}" + (f", commit {result['commit']})"
                                               if result.get("commit") else ")")]
    ax.set_title(safety.printable_line(" ".join(where)).replace("$", r"\$"), fontsize=9)
    ax.legend(fontsize=8)
    _save(fig, path)
    return path


def plot_tune(landscape: dict[str, list[dict]], path: str | Path, title: str = "") -> Path:
    """Each shape's candidates (generator/tune/tune.py landscape): time per
    candidate in measuring order, failures as red crosses at the top, the
    current entry ringed, the winner starred."""
    path = Path(path)
    shapes = [tag for tag, points in landscape.items() if points]
    if not shapes:
        raise UserError(f"--plot {path}: no recorded candidate to draw")
    cols = min(2, len(shapes))
    rows = (len(shapes) + cols - 1) // cols
    fig = _figure(path, 6.0 * cols, 3.2 * rows)
    for k, tag in enumerate(shapes):
        ax = fig.add_subplot(rows, cols, k + 1)
        points = landscape[tag]
        timed = [(i, p) for i, p in enumerate(points) if p["mean_us"] is not None]
        top = max((p["mean_us"] for _, p in timed), default=1.0) * 1.1
        if timed:
            ax.errorbar([i for i, _ in timed], [p["mean_us"] for _, p in timed],
                        yerr=[p["sem_us"] or 0 for _, p in timed], fmt="o", ms=4,
                        color="tab:blue", label="passed")
        failed = [i for i, p in enumerate(points) if p["mean_us"] is None]
        if failed:
            ax.scatter(failed, [top] * len(failed), marker="x", color="tab:red",
                       label="failed / rejected / skipped")
        for i, p in enumerate(points):
            y = p["mean_us"] if p["mean_us"] is not None else top
            if p["current"]:
                ax.scatter([i], [y], s=160, facecolors="none", edgecolors="black",
                           label="current entry")
            if p["winner"]:
                ax.scatter([i], [y], s=160, marker="*", color="tab:green", label="best candidate")
        ax.set_title(tag, fontsize=9)
        ax.set_xlabel("candidate (measuring order)")
        ax.set_ylabel("mean us")
        ax.legend(fontsize=6)
    if title:
        fig.suptitle(title, fontsize=10)
    _save(fig, path)
    return path
