"""Probe (twelfth session): does a programmatic dependent launch shorten a call
as gen bench times it (clear, start event, call, end event)? An empty kernel of
128 programs, launched plainly or with launch_pdl (griddepcontrol.wait first),
interleaved call by call, dirty L2, medians of 300.

    python3 perf/run-2026-12-01-twelfth/pdl_probe.py OUT.json
"""

import json
import statistics
import sys
from pathlib import Path

import torch
import triton
import triton.language as tl
from triton.language.extra.cuda import gdc_wait

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scripts.l2_state import call_us  # noqa: E402


@triton.jit
def _empty(x_ptr, WAIT: tl.constexpr):
    if WAIT:
        gdc_wait()
    tl.store(x_ptr + tl.program_id(0), 1)


def main() -> None:
    scratch = torch.empty(2 << 30, dtype=torch.uint8, device="cuda")
    flush = torch.empty(256 << 20, dtype=torch.float32, device="cuda")
    x = torch.zeros(1024, dtype=torch.int32, device="cuda")
    variants = {
        "plain": lambda: _empty[(128,)](x, False),
        "pdl": lambda: _empty[(128,)](x, True, launch_pdl=True),
        "plain_nowait_pdl": lambda: _empty[(128,)](x, False, launch_pdl=True),
    }
    for fn in variants.values():
        fn()
    times = {k: [] for k in variants}
    for _ in range(300):
        for k, fn in variants.items():
            times[k].append(call_us(fn, scratch, flush, "dirty"))
    out = {k: statistics.median(v) for k, v in times.items()}
    print(out)
    Path(sys.argv[1]).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
