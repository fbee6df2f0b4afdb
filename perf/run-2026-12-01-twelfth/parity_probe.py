"""Probe (twelfth session): do consecutive timed calls alternate between a fast
and a slow time?

In runs 9, 11 and 12 identical copies of a file, called in a fixed order with
an even number of copies, were each consistently fast or slow, the fast ones
every other position (run 12, b4 kv8192: 17.60, 18.43, 17.73, 18.45, 17.66,
18.43). Here one runner (and an empty kernel) is timed call after call as
bound.py times it (gen bench's 2 GiB clear, events around the call), and the
medians of the odd and the even calls are compared.

    python3 perf/run-2026-12-01-twelfth/parity_probe.py SUBMISSION OUT.json [reads]
"""

import json
import statistics
import sys
from pathlib import Path

import torch
import triton
import triton.language as tl

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from generator.gpu.harness import import_submission  # noqa: E402
from generator.gpu.inputs import make_inputs, uniform_case  # noqa: E402
from scripts.l2_state import call_us  # noqa: E402

RUNS = 400


@triton.jit
def _empty(x_ptr):
    tl.store(x_ptr + tl.program_id(0), 1)


def main() -> None:
    module = import_submission(Path(sys.argv[1]).read_text())
    scratch = torch.empty(2 << 30, dtype=torch.uint8, device="cuda")
    flush = torch.empty(256 << 20, dtype=torch.float32, device="cuda")
    x = torch.zeros(1024, dtype=torch.int32, device="cuda")
    out = {}
    cases = {"empty": lambda: (lambda: _empty[(128,)](x))}
    if len(sys.argv) > 3:
        # plain reads of KV-sized buffers (torch's sum): is the pattern the clear's?
        for mib in (19, 38):
            buf = torch.ones(mib << 18, dtype=torch.float32, device="cuda")
            cases[f"read{mib}MiB"] = (lambda b=buf: (lambda: b.sum()))
    for batch, kv_len in ((4, 1024), (4, 8192), (32, 1024)):
        tag = f"b{batch}_kv{kv_len}"
        data = make_inputs(uniform_case(tag, batch, kv_len), 5, "cuda", "e4m3fn")
        runner = getattr(module, f"run_{tag}")
        cases[tag] = (lambda r=runner, d=data: (lambda: r(*d)))
    for name, make in cases.items():
        fn = make()
        for _ in range(5):
            fn()
        times = [call_us(fn, scratch, flush, "dirty") for _ in range(RUNS)]
        odd, even = times[0::2], times[1::2]
        by4 = [round(statistics.median(times[k::4]), 2) for k in range(4)]
        row = {"odd_median_us": statistics.median(odd), "even_median_us": statistics.median(even),
               "median_by_call_mod_4_us": by4,
               "median_us": statistics.median(times), "first_20": [round(t, 2) for t in times[:20]]}
        out[name] = row
        print(name, f"odd {row['odd_median_us']:.2f} even {row['even_median_us']:.2f} by call mod 4 {by4}",
              row["first_20"], flush=True)
    Path(sys.argv[2]).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
