"""Time a generated submission's shapes with the L2 left dirty by the clear
(as `gen bench` and the leaderboard leave it) and with the L2 clean, in one
process, to measure what the clear's write-backs cost a call.

    python3 scripts/l2_state.py build/h200/submission.py [--json out.json]

dirty: a large buffer is zeroed before each timed call (the bench's clear; the
leaderboard's torch.randn clear also writes), so the L2 is full of modified
lines, and every line a call reads first evicts one of them to HBM.
clean: the same clear, then a read of a separate buffer larger than the L2
(untimed), so that the write-backs happen before the start event and the
call's reads evict clean lines. Also times torch reads of plain buffers of a
few sizes both ways, to show the effect belongs to the memory system and not
to the kernels.
"""

import argparse
import json
import statistics
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.gpu.harness import import_submission  # noqa: E402
from generator.gpu.inputs import make_inputs, uniform_case  # noqa: E402

SHAPES = [(4, 1024), (4, 8192), (32, 1024), (32, 8192), (64, 1024), (64, 8192), (256, 1024), (256, 8192)]


def call_us(fn, scratch, flush, state):
    """One timed call of fn (us) after the clear: L2 left dirty, or (state
    "clean") the clear's lines written back first by an untimed read."""
    torch.cuda.synchronize()
    scratch.zero_()
    if state == "clean":
        flush.sum()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) * 1000.0


def timed(fn, scratch, flush, runs):
    """Median and mean (us) of fn per state, the two states interleaved."""
    out = {"dirty": [], "clean": []}
    for _ in range(runs):
        for state in ("dirty", "clean"):
            out[state].append(call_us(fn, scratch, flush, state))
    return {s: {"median_us": statistics.median(v), "mean_us": statistics.fmean(v)} for s, v in out.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("submission")
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    module = import_submission(Path(args.submission).read_text())
    scratch = torch.empty(2 << 30, dtype=torch.uint8, device="cuda")   # 2 GiB clear
    flush = torch.empty(256 << 20, dtype=torch.float32, device="cuda")  # 1 GiB read
    results = {"device": torch.cuda.get_device_name(), "runs": args.runs, "shapes": {}, "reads": {}}
    for mib in (16, 64, 256, 1024):
        buf = torch.ones(mib << 18, dtype=torch.float32, device="cuda")
        r = timed(lambda b=buf: b.sum(), scratch, flush, args.runs)
        for s in r.values():
            s["GB/s"] = (mib << 20) / (s["median_us"] * 1e3)
        results["reads"][f"{mib}MiB"] = r
        print(f"read {mib:5d} MiB  dirty {r['dirty']['median_us']:9.2f} us ({r['dirty']['GB/s']:6.0f} GB/s)"
              f"  clean {r['clean']['median_us']:9.2f} us ({r['clean']['GB/s']:6.0f} GB/s)", flush=True)
        del buf
    for i, (batch, kv_len) in enumerate(SHAPES):
        case = uniform_case(f"b{batch}_kv{kv_len}", batch, kv_len)
        data = make_inputs(case, 100 + i, "cuda", "e4m3fn")
        for _ in range(3):
            module.custom_kernel(data)
        r = timed(lambda d=data: module.custom_kernel(d), scratch, flush, args.runs)
        results["shapes"][case.name] = r
        print(f"{case.name:12s}  dirty {r['dirty']['median_us']:8.2f} us  clean {r['clean']['median_us']:8.2f} us"
              f"  saved {r['dirty']['median_us'] - r['clean']['median_us']:6.2f} us", flush=True)
        del data
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
