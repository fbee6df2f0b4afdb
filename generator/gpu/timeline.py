"""gen timeline: where each program of a gluon kernel spends a call.

A timeline build (build_plan(timeline=True), never committed) has every
attention program write %globaltimer at fixed points of its life into its row
of a (programs, 16) int64 buffer (templates/backends/gluon.py.j2, _gl_stamp).
Each shape is called as gen bench calls it (the L2 cleared by a large write
before each call, events around it); after each call the stamps are read back.
Times are in us after the call's first program entry; per call, the median
and the latest program at each slot, then the median of those over the calls.
A slot's time is when the program got there, after whatever it waited for:
the indptr loads, Q, the first tile, its last tile, its stores being issued,
the other splits of its row at the merge barrier.

Each program also records the SM it ran on, so that the timeline can say how
unevenly the SMs finish their tile loops: per call, each SM's loop end is its
latest program's; the mean of those against the latest is what a perfect
balance of the loops' work across SMs could save at most (an overstatement
where HBM bounds the loops: an idle SM adds no bandwidth). (On the H200 the
SMs of some GPCs ran a one-pass shape's loops about 10% faster than the rest:
PERF.md, 2026-12-01, nineteenth session.)
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from pathlib import Path

# Slot -> what the program had done when it wrote it. 8-12: consumers 2 (the
# second warpgroup, the hand-over and the fold); 6, 7, 13: merge barrier.
SLOTS = {
    0: "entry",
    1: "indptrs in",
    2: "Q in shared memory",
    3: "first tile's scores",
    4: "tile loop done",
    5: "output / partial stores issued",
    13: "arrived at the merge barrier",
    6: "merge barrier passed",
    7: "merge stores issued",
    8: "second warpgroup: first scores",
    9: "second warpgroup: tile loop done",
    10: "second warpgroup: results handed over",
    11: "first warpgroup past warp_specialize",
    12: "second warpgroup's results folded in",
}
# Slot 14: the SM the program ran on (%smid); slot 15: the program's tiles
# (with claim_tiles, its split's share before the claims: the count the fixed
# split would have given it).
SM_SLOT = 14
TILES_SLOT = 15
# The slots that end a program's tile loops (the second warpgroup's with
# consumers 2).
LOOP_END_SLOTS = (4, 9)
NS_PER_US = 1000.0


@dataclass(frozen=True)
class CallStamps:
    """One call's stamps, reduced over its programs (us after the first entry)."""

    event_us: float
    span_us: float
    programs: int
    tiles: int
    median: dict[int, float]
    latest: dict[int, float]
    # SM id -> when the last tile loop of its programs ended (us)
    sm_loop_end: dict[int, float]


def reduce_call(stamps, event_us: float) -> CallStamps:
    """One call's stamp rows (a CPU int64 tensor, programs x 16; a program
    that did not run, or a slot it did not reach, reads 0)."""
    ran = stamps[:, 0] > 0
    rows = stamps[ran]
    t0 = rows[:, 0].min()
    median, latest = {}, {}
    for slot in SLOTS:
        hit = rows[:, slot] > 0
        if hit.any():
            t = (rows[hit, slot] - t0).double() / NS_PER_US
            median[slot] = float(t.median())
            latest[slot] = float(t.max())
    span = max(latest.values())
    ends = rows[:, list(LOOP_END_SLOTS)].max(dim=1).values
    sm_loop_end: dict[int, float] = {}
    for sm, end in zip(rows[:, SM_SLOT].tolist(), ends.tolist()):
        if end > 0:
            sm_loop_end[sm] = max(sm_loop_end.get(sm, 0.0), (end - int(t0)) / NS_PER_US)
    return CallStamps(event_us, span, int(ran.sum()), int(rows[:, TILES_SLOT].max()), median, latest,
                      sm_loop_end)


def sm_balance(calls: list[CallStamps]) -> dict | None:
    """How evenly the SMs finished their tile loops: per call the mean and the
    latest of the SMs' loop ends, then medians over the calls; and each SM's
    median loop end (us after the first entry)."""
    calls = [c for c in calls if c.sm_loop_end]
    if not calls:
        return None
    means = [statistics.fmean(c.sm_loop_end.values()) for c in calls]
    latest = [max(c.sm_loop_end.values()) for c in calls]
    by_sm: dict[int, list[float]] = {}
    for c in calls:
        for sm, end in c.sm_loop_end.items():
            by_sm.setdefault(sm, []).append(end)
    mean, last = statistics.median(means), statistics.median(latest)
    return {
        "sms": statistics.median_low([len(c.sm_loop_end) for c in calls]),
        "loop_end_mean_us": mean,
        "loop_end_latest_us": last,
        # the most a perfect balance of the loops' work across SMs could save
        "imbalance_us": last - mean,
        "loop_end_by_sm_us": {str(sm): statistics.median(v) for sm, v in sorted(by_sm.items())},
    }


def combine(calls: list[CallStamps]) -> dict:
    """The calls of one shape: medians over calls of each figure."""
    slots = sorted({s for c in calls for s in c.median}, key=list(SLOTS).index)

    def med(values):
        return statistics.median(values)

    event = med([c.event_us for c in calls])
    span = med([c.span_us for c in calls])
    return {
        "calls": len(calls),
        "programs": calls[0].programs,
        "tiles": max(c.tiles for c in calls),
        "event_us": event,
        "span_us": span,
        # the launch and the events around the call, as far as the stamps see
        "outside_us": event - span,
        "sm_balance": sm_balance(calls),
        "slots": {SLOTS[s]: {"slot": s,
                             "median_us": med([c.median[s] for c in calls if s in c.median]),
                             "latest_us": med([c.latest[s] for c in calls if s in c.latest])}
                  for s in slots},
    }


def timeline_rows(spec_path, shapes=(), runs=40, l2_clear_mib=8192, progress=None) -> dict:
    """Time every gluon runner of the spec through a timeline build."""
    import torch

    from generator.core import registry
    from generator.core.spec import load_spec
    from generator.gpu.bench import Clock, git_commit
    from generator.gpu.check import filter_tags, localize, runner_for
    from generator.gpu.harness import build_module, this_platform
    from generator.gpu.inputs import make_inputs, uniform_case
    from generator.errors import UserError

    original = load_spec(spec_path)
    spec, _ = localize(original, this_platform(), interpret=False)
    if shapes:
        filter_tags(original, spec, shapes, with_fallback=False)
    plan, module = build_module(spec, timeline=True)
    stamped = [name for name, b in registry.BACKENDS.items() if b.timeline_stamps]
    runners = [r for r in plan.runners
               if registry.BACKENDS[r.backend].timeline_stamps and (not shapes or r.tag in shapes)]
    if not runners:
        raise UserError(f"{spec_path}: no entry to time (only these backends' kernels write stamps: "
                        f"{', '.join(stamped)})")
    clock = Clock(l2_clear_mib, "benchmark", max_seconds=0.0)  # its clear and one timed call
    result = {"spec": str(spec_path), "commit": git_commit(), "device": torch.cuda.get_device_name(),
              "torch": torch.__version__, "runs": runs, "l2_clear_mib": l2_clear_mib, "shapes": {}}
    for i, r in enumerate(runners):
        case = uniform_case(r.tag, *r.key[:2], q_seq_len=r.key[2], num_heads=r.key[3])
        assert runner_for(plan, case) is r
        stamps = module._gl_stamps(torch.device("cuda", torch.cuda.current_device()))
        programs = r.launches[0].grid[0] * r.launches[0].grid[1]
        if programs > stamps.shape[0]:
            raise UserError(f"{r.tag}: {programs} programs, more than the timeline build's "
                            f"{stamps.shape[0]} rows of stamps")
        data = make_inputs(case, 100 + i, "cuda", spec.target.fp8_format)
        for _ in range(3):
            module.custom_kernel(data)
        calls = []
        for _ in range(runs):
            stamps.zero_()
            us, _ = clock.call(lambda: module.custom_kernel(data))
            calls.append(reduce_call(stamps[:programs].cpu(), us))
        result["shapes"][r.tag] = combine(calls)
        if progress:
            progress(r.tag)
        del data
    return result


def print_timeline(result: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    for tag, row in result["shapes"].items():
        table = Table(title=f"{tag}: {row['programs']} programs, up to {row['tiles']} tiles each; "
                            f"call {row['event_us']:.2f} us, first entry to last stamp "
                            f"{row['span_us']:.2f} us, outside the stamps {row['outside_us']:.2f} us")
        table.add_column("slot", justify="right")
        table.add_column("the program has")
        table.add_column("median us", justify="right")
        table.add_column("latest us", justify="right")
        for name, s in row["slots"].items():
            table.add_row(str(s["slot"]), name, f"{s['median_us']:.2f}", f"{s['latest_us']:.2f}")
        console.print(table)
        balance = row.get("sm_balance")
        if balance:
            by_sm = sorted(balance["loop_end_by_sm_us"].items(), key=lambda kv: kv[1])
            first = ", ".join(f"{sm} ({us:.1f})" for sm, us in by_sm[:4])
            last = ", ".join(f"{sm} ({us:.1f})" for sm, us in by_sm[-4:])
            console.print(f"{balance['sms']} SMs: their tile loops end at {balance['loop_end_mean_us']:.2f} us "
                          f"on average, the last at {balance['loop_end_latest_us']:.2f} (a perfect balance "
                          f"across SMs would save at most {balance['imbalance_us']:.2f} us); SMs ending first, "
                          f"median us: {first}; last: {last}")
    balanced = {tag: row for tag, row in result["shapes"].items() if row.get("sm_balance")}
    if len(balanced) > 1:
        table = Table(title="the SMs' balance: what moving loop work between SMs could save at most")
        for name in ("shape", "call us", "SMs", "mean SM loop end us", "last us", "at most us", "of the call"):
            table.add_column(name, justify="left" if name == "shape" else "right")
        for tag, row in balanced.items():
            b = row["sm_balance"]
            table.add_row(tag, f"{row['event_us']:.2f}", str(b["sms"]), f"{b['loop_end_mean_us']:.2f}",
                          f"{b['loop_end_latest_us']:.2f}", f"{b['imbalance_us']:.2f}",
                          f"{100 * b['imbalance_us'] / row['event_us']:.1f}%")
        console.print(table)


def run_timeline(spec_path, shapes=(), runs=40, json_path=None) -> dict:
    import torch
    from rich.progress import Progress

    from generator.errors import UserError

    if not torch.cuda.is_available():
        raise UserError("gen timeline needs a GPU (none found)")
    with Progress(transient=True) as progress:
        task = progress.add_task(f"stamping {spec_path}", total=None)
        result = timeline_rows(spec_path, shapes, runs,
                               progress=lambda tag: progress.update(task, advance=1, description=f"did {tag}"))
    print_timeline(result)
    if json_path:
        Path(json_path).write_text(json.dumps(result, indent=2))
    return result
