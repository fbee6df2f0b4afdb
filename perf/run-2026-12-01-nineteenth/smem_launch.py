"""Experiment (2026-12-01, nineteenth session): does a kernel's shared memory
size cost its launch after the clear? (The clear's kernel uses none; a kernel
that needs a larger shared-memory carveout may wait for the SM to
reconfigure it.)

    python3 perf/run-2026-12-01-nineteenth/smem_launch.py OUT.json

An empty gluon kernel (one warp group; it fills its shared memory, or with
SMEM_FILL=0 only 2 KiB of each buffer (SMEM_FILL=both: both kinds), and reads one word back, so the
allocation stays) with 0 to 192 KiB of shared memory,
grids of 128 and 256 programs, timed as gen bench times a call (2 GiB clear,
events around the call), interleaved in a new order every round, medians of
RUNS calls.
"""

import json
import os
import random
import statistics
import sys
from pathlib import Path

import torch
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

RUNS = int(os.environ.get("SMEM_RUNS", "300"))
# SMEM_FILL=1: every word filled (run 6); 0: 2 KiB of each buffer; both:
# both kinds, interleaved (run 7)
FILLS = {"1": (True,), "0": (False,), "both": (True, False)}[os.environ.get("SMEM_FILL", "1")]
SIZES_KIB = ((0, 0), (32, 0), (64, 0), (64, 32), (128, 0), (128, 64))


@gluon.jit
def _fill(buf, WORDS: gl.constexpr, layout: gl.constexpr, FILL: gl.constexpr):
    """FILL: every word (run 6); else the first 512 words only (run 7: the
    allocation, and so the launch's shared memory, stays WORDS)."""
    offs = gl.arange(0, 512, layout=layout)
    for i in gl.static_range(WORDS // 512 if FILL else 1):
        buf.slice(i * 512, 512).store(offs)


@gluon.jit
def _empty(OUT, FLAG, WORDS_A: gl.constexpr, WORDS_B: gl.constexpr, FILL: gl.constexpr):
    """WORDS_A + WORDS_B int32 words of shared memory (each a power of two, or
    0), filled; one word read back and stored only if FLAG says so (never)."""
    layout: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    offs = gl.arange(0, 512, layout=layout)
    x = offs
    if WORDS_A > 0:
        a = gl.allocate_shared_memory(gl.int32, [WORDS_A], gl.SwizzledSharedLayout(1, 1, 1, [0]))
        _fill(a, WORDS_A, layout, FILL)
        if WORDS_B > 0:
            b = gl.allocate_shared_memory(gl.int32, [WORDS_B], gl.SwizzledSharedLayout(1, 1, 1, [0]))
            _fill(b, WORDS_B, layout, FILL)
            gl.thread_barrier()
            x = x + b.slice(0, 512).load(layout)
        gl.thread_barrier()
        x = x + a.slice(0, 512).load(layout)
    gl.store(OUT + offs, x, mask=offs < gl.load(FLAG))


def main():
    out_path = Path(sys.argv[1])
    out = torch.zeros(512, dtype=torch.int32, device="cuda")
    flag = torch.zeros(1, dtype=torch.int32, device="cuda")
    scratch = torch.empty(2 << 30, dtype=torch.uint8, device="cuda")
    variants = {}
    for fill in FILLS:
        for ka, kb in SIZES_KIB:
            for grid in (128, 256):
                name = f"{ka + kb}KiB_x{grid}" + ("" if fill else "_touch")
                variants[name] = (
                    lambda a=ka * 256, b=kb * 256, g=grid, f=fill: _empty[(g,)](out, flag, a, b, f, num_warps=4))
    for fn in variants.values():
        fn()
    torch.cuda.synchronize()
    times = {k: [] for k in variants}
    order = list(variants)
    rng = random.Random(0)
    for _ in range(RUNS):
        rng.shuffle(order)
        for k in order:
            torch.cuda.synchronize()
            scratch.zero_()
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            variants[k]()
            end.record()
            torch.cuda.synchronize()
            times[k].append(start.elapsed_time(end) * 1000.0)
    res = {k: statistics.median(v) for k, v in times.items()}
    for k, v in res.items():
        print(k.ljust(14), f"{v:6.2f}", flush=True)
    out_path.write_text(json.dumps({"device": torch.cuda.get_device_name(), "runs": RUNS, "median_us": res}, indent=1))


if __name__ == "__main__":
    main()
