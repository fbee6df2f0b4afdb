"""Thirty-second session: are the claim_tiles shapes' loops bound by their
SMs or by HBM? Each kernel of the build launched on more or fewer rows than
its shape has (the same work a program, grid (rows, splits)), timed as
bound.py times a call (2 GiB clear, L2 dirty, medians, variants interleaved):

    python3 perf/run-2026-12-02-thirtysecond/smbound.py BUILD.py OUT.json

If a row's programs run at their SM's pace, 33 rows of b32 kv8192 (132
programs, every SM) take as long as 32 (128 programs); if HBM sets the pace,
33/32 as long. Likewise b64 kv8192 at 66 rows against 64, and b256 kv8192's
one-pass kernel at 264 rows (every slot of two programs an SM) against 256.
SM_PLAN=small: the same for the one-warpgroup split kernels and b256
kv1024's (b4 at 2 rows against 4).
"""

import json
import os
import statistics
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from generator.gpu.harness import import_submission  # noqa: E402
from generator.gpu.inputs import make_inputs, uniform_case  # noqa: E402
from scripts.l2_state import call_us  # noqa: E402

RUNS = int(os.environ.get("SM_RUNS", "300"))
# (kernel, kv_len, splits, programs a split (dv_split), cooperative, row counts)
LARGE = [
    ("mla_b32_kv8192_gluon_split4", 8192, 4, 1, True, [16, 32, 33]),
    ("mla_b64_kv8192_gluon_split2", 8192, 2, 1, True, [32, 64, 66]),
    ("mla_b256_kv8192_gluon", 8192, 1, 1, False, [128, 256, 264]),
]
# SM_PLAN=small (run 3): the one-warpgroup split kernels
SMALL = [
    ("mla_b4_kv1024_gluon_split16", 1024, 16, 2, True, [2, 4]),
    ("mla_b4_kv8192_gluon_split32", 8192, 32, 1, True, [2, 4]),
    ("mla_b32_kv1024_gluon_split4", 1024, 4, 1, True, [16, 32, 33]),
    ("mla_b64_kv1024_gluon_split2", 1024, 2, 1, True, [32, 64, 66]),
    ("mla_b256_kv1024_gluon", 1024, 1, 1, False, [128, 256, 264]),
]
PLAN = SMALL if os.environ.get("SM_PLAN") == "small" else LARGE


def launcher(m, name, kv_len, splits, dv_split, coop, rows):
    case = uniform_case(f"b{rows}_kv{kv_len}", rows, kv_len)
    q, kv_data, qo_indptr, kv_indptr, _ = make_inputs(case, 7, "cuda", "e4m3fn")
    kv, kv_scale = kv_data["fp8"]
    dev = q.device
    part_o = torch.empty((splits, rows, 16, 512), dtype=torch.float16, device=dev)
    part_lse = torch.empty((splits, rows, 16), dtype=torch.float32, device=dev)
    out = torch.empty((rows, 16, 512), dtype=torch.bfloat16, device=dev)
    counters = torch.zeros((2 * rows,), dtype=torch.int64, device=dev)
    kern = getattr(m, name)
    extra = {"launch_cooperative_grid": True} if coop else {}

    def call():
        kv_desc, kv_tile_desc = m._mla_gluon_kv_desc(kv, True)
        kern[(rows, splits * dv_split)](
            q, kv_desc, kv_tile_desc, kv_scale, qo_indptr, kv_indptr, out, part_o, part_lse, counters,
            kv_scale, 0, 0, 0, q.stride(0), q.stride(1), q.stride(2),
            out.stride(0), out.stride(1), part_o.stride(0), part_o.stride(1), part_o.stride(2),
            part_lse.stride(0), part_lse.stride(1), num_warps=4, **extra)
        return out

    return call


def main() -> None:
    m = import_submission(Path(sys.argv[1]).read_text())
    scratch = torch.empty(2 << 30, dtype=torch.uint8, device="cuda")
    flush = torch.empty(256 << 20, dtype=torch.float32, device="cuda")
    results = {}
    for name, kv_len, splits, dv_split, coop, row_counts in PLAN:
        calls = {r: launcher(m, name, kv_len, splits, dv_split, coop, r) for r in row_counts}
        for c in calls.values():
            for _ in range(3):
                c()
        times = {r: [] for r in row_counts}
        for _ in range(RUNS):
            for r, c in calls.items():
                times[r].append(call_us(c, scratch, flush, "dirty"))
        row = {r: statistics.median(v) for r, v in times.items()}
        results[name] = {str(r): v for r, v in row.items()}
        print(name.ljust(30), "  ".join(f"rows {r}: {v:8.2f}" for r, v in row.items()), flush=True)
    Path(sys.argv[2]).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
