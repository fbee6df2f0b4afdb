"""Probe (2026-12-01): do evict-first reads keep the clear's dirty lines in L2?

A plain Triton read of a large buffer (the KV stream's access pattern: every
byte once), timed with the L2 dirty (a 2 GiB buffer zeroed before each call,
as gen bench and the leaderboard leave it) and clean, with and without
eviction_policy="evict_first" on the loads. If evict-first reads cycle their
own lines through L2 instead of evicting the clear's, the dirty-L2 penalty
(about 9.5 us a large shape, PERF.md) should shrink for them.

    python3 perf/run-2026-12-01-bound/evict_probe.py OUT.json
"""

import json
import sys
from pathlib import Path

import torch
import triton
import triton.language as tl

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scripts.l2_state import timed  # noqa: E402


@triton.jit
def _read(x_ptr, out_ptr, n, BLOCK: tl.constexpr, EVICT: tl.constexpr):
    pid = tl.program_id(0)
    step = tl.num_programs(0) * BLOCK
    acc = tl.zeros([BLOCK], dtype=tl.int32)
    for start in range(pid * BLOCK, n, step):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, eviction_policy=EVICT)
    tl.store(out_ptr + pid * BLOCK + tl.arange(0, BLOCK), acc)


def main() -> None:
    out_path = sys.argv[1]
    scratch = torch.empty(2 << 30, dtype=torch.uint8, device="cuda")
    flush = torch.empty(256 << 20, dtype=torch.float32, device="cuda")
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    block = 4096
    grid = (sms * 4,)
    out = torch.empty(grid[0] * block, dtype=torch.int32, device="cuda")
    results = {"device": torch.cuda.get_device_name(), "runs": 100, "reads": {}}
    for mib in (64, 256, 1024):
        x = torch.ones((mib << 20) // 4, dtype=torch.int32, device="cuda")
        for evict in ("", "evict_first"):
            k = _read[grid](x, out, x.numel(), BLOCK=block, EVICT=evict, num_warps=8)
            ptx = k.asm["ptx"]
            hint = sorted({line.strip().split()[0] for line in ptx.splitlines() if "ld.global" in line})
            r = timed(lambda: _read[grid](x, out, x.numel(), BLOCK=block, EVICT=evict, num_warps=8),
                      scratch, flush, 100)
            row = {s: r[s]["median_us"] for s in ("dirty", "clean")}
            row["loads"] = hint
            results["reads"][f"{mib}MiB/{evict or 'normal'}"] = row
            print(f"{mib:5d} MiB {evict or 'normal':12s} dirty {row['dirty']:9.2f} us  clean {row['clean']:9.2f} us"
                  f"  penalty {row['dirty'] - row['clean']:6.2f}  {hint}", flush=True)
        del x
    with open(out_path, "w") as f:
        json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
