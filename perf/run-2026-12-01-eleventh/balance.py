"""Experiment (2026-12-01, eleventh session): how much would handing tiles out
at run time (each consumer of a row claiming its next tile from a per-row
counter) shorten the tile loop, if each consumer kept the rate it had?

Runs the timeline build of a spec (as gen timeline) and keeps every program's
stamps. Per call and shape, from each consumer's first scores (slot 3, or 8
for the second warpgroup), its loop end (slot 4, or 9) and its tile count
(slot 15, halved for two warpgroups), its rate r_c = tiles / (end - start).
The latest loop end now, against the loop ends if the row's tiles had been
shared so that its consumers end together (T_row solving
sum_c r_c (T_row - start_c) = the row's tiles) and if all the call's tiles
had been (one T for the whole grid). Medians over the calls, us after the
first entry.

    python3 perf/run-2026-12-01-eleventh/balance.py SPEC OUT.json SHAPE ...
"""

import json
import statistics
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from generator.core.spec import load_spec  # noqa: E402
from generator.gpu.bench import Clock  # noqa: E402
from generator.gpu.check import filter_tags, localize, runner_for  # noqa: E402
from generator.gpu.harness import build_module, this_platform  # noqa: E402
from generator.gpu.inputs import make_inputs, uniform_case  # noqa: E402

RUNS = 20


def balanced_end(consumers):
    """The common end of consumers (start, rate, tiles) sharing their tiles."""
    total = sum(n for _, _, n in consumers)
    rate = sum(r for _, r, _ in consumers)
    return (total + sum(r * s for s, r, _ in consumers)) / rate


def analyse(stamps, per_row, two):
    t0 = stamps[:, 0][stamps[:, 0] > 0].min()
    us = (stamps - t0).double() / 1000.0
    rows = {}
    for p in range(stamps.shape[0]):
        n = int(stamps[p, 15])
        if n == 0:
            continue
        parts = [(3, 4, (n + 1) // 2 if two else n)] + ([(8, 9, n // 2)] if two else [])
        for s, e, k in parts:
            if k == 0:
                continue
            start, end = float(us[p, s]), float(us[p, e])
            # (a consumer's first scores mark its first tile done: k - 1 more in end - start)
            rate = (k - 1) / (end - start) if k > 1 and end > start else None
            rows.setdefault(p // per_row, []).append((start, end, rate, k))
    latest = max(end for cs in rows.values() for _, end, _, _ in cs)
    usable = {b: [(s, r, k - 1) for s, _, r, k in cs] for b, cs in rows.items() if all(r for _, _, r, _ in cs)}
    row_ends = [balanced_end(cs) for cs in usable.values()]
    grid_end = balanced_end([c for cs in usable.values() for c in cs])
    ends = sorted(end for cs in rows.values() for _, end, _, _ in cs)
    return {"latest": latest, "median_end": statistics.median(ends), "row_balanced": max(row_ends),
            "grid_balanced": grid_end}


def main():
    spec_path, out, shapes = sys.argv[1], sys.argv[2], sys.argv[3:]
    original = load_spec(spec_path)
    spec, _ = localize(original, this_platform(), interpret=False)
    filter_tags(original, spec, shapes, with_fallback=False)
    plan, module = build_module(spec, timeline=True)
    clock = Clock(8192, "benchmark", max_seconds=0.0)
    result = {}
    for i, r in enumerate(x for x in plan.runners if x.tag in shapes):
        case = uniform_case(r.tag, *r.key[:2], q_seq_len=r.key[2], num_heads=r.key[3])
        assert runner_for(plan, case) is r
        grid = r.launches[0].grid
        programs = grid[0] * grid[1]
        stamps = module._gl_stamps(torch.device("cuda", torch.cuda.current_device()))
        data = make_inputs(case, 100 + i, "cuda", spec.target.fp8_format)
        for _ in range(3):
            module.custom_kernel(data)
        calls = []
        for _ in range(RUNS):
            stamps.zero_()
            us, _ = clock.call(lambda: module.custom_kernel(data))
            st = stamps[:programs].cpu()
            two = bool((st[:, 9] > 0).any())  # (the second warpgroup's loop end: consumers 2)
            calls.append(analyse(st, grid[1], two))
        med = {k: statistics.median(c[k] for c in calls) for k in calls[0]}
        result[r.tag] = {"programs": programs, "two_consumers": two, **med}
        print(f"{r.tag:12} {programs:4} programs  median end {med['median_end']:7.2f}  latest {med['latest']:7.2f}"
              f"  row-balanced {med['row_balanced']:7.2f}  grid-balanced {med['grid_balanced']:7.2f}", flush=True)
        del data
    Path(out).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
