"""Probe (twelfth session): does where a runner's own buffers land change its time?

Copies of one submission file timed in one process differ by up to 0.9 us on the
small shapes, each copy consistently fast or slow (runs 9, 11, 12). A copy's
only state of its own is its buffers (partials, log-sum-exps, output,
counters: made once per runner and device) and its compiled kernels. Here one
module's runner is timed again and again, its buffers dropped and remade
between trials behind a pad allocation of a different size, so that only their
addresses change; each trial prints their addresses and the median call
(dirty L2, as gen bench).

    python3 perf/run-2026-12-01-twelfth/placement_probe.py SUBMISSION OUT.json
"""

import json
import statistics
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from generator.gpu.harness import import_submission  # noqa: E402
from generator.gpu.inputs import make_inputs, uniform_case  # noqa: E402
from scripts.l2_state import call_us  # noqa: E402

SHAPES = [(4, 1024), (4, 8192), (32, 1024)]
TRIALS = 8
RUNS = 150


def main() -> None:
    module = import_submission(Path(sys.argv[1]).read_text())
    scratch = torch.empty(2 << 30, dtype=torch.uint8, device="cuda")
    flush = torch.empty(256 << 20, dtype=torch.float32, device="cuda")
    results = {}
    for batch, kv_len in SHAPES:
        tag = f"b{batch}_kv{kv_len}"
        data = make_inputs(uniform_case(tag, batch, kv_len), 11, "cuda", "e4m3fn")
        runner = getattr(module, f"run_{tag}")
        make = getattr(module, f"_{tag}_buffers")
        rows, pads, kept = [], [], []
        for trial in range(TRIALS):
            if trial:
                kept.append(make(data[0].device))  # (held, so that new buffers land elsewhere)
            make.cache_clear()
            pads.append(torch.empty((trial * 37 + 1) * 4096, dtype=torch.uint8, device="cuda"))
            for _ in range(3):
                runner(*data)
            bufs = make(data[0].device)
            times = [call_us(lambda: runner(*data), scratch, flush, "dirty") for _ in range(RUNS)]
            row = {"median_us": statistics.median(times),
                   "addresses": [hex(b.data_ptr()) for b in bufs]}
            rows.append(row)
            print(tag, trial, f"{row['median_us']:.2f}", " ".join(row["addresses"]), flush=True)
        results[tag] = rows
    Path(sys.argv[2]).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
