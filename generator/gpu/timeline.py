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
# Slot 15: the program's tiles (with claim_tiles, its split's share before
# the claims: the count the fixed split would have given it).
TILES_SLOT = 15
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
    return CallStamps(event_us, span, int(ran.sum()), int(rows[:, TILES_SLOT].max()), median, latest)


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
