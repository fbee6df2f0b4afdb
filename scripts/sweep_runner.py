"""Time one runner of a generated submission over several KV lengths, to split
its time into a fixed cost per call and a cost per KV tile.

    python3 scripts/sweep_runner.py build/h200/submission.py run_b256_kv1024 256 64,512,1024,2048,4096

Each length is timed as `gen bench` times a shape (same clock, L2 clear and
stop rule, queued); the line fitted through the medians gives the intercept
(launches, prologue, drain) and the slope (us per 64 KV rows per program when
the runner's split count is fixed). A runner reads its KV length from the
indptr arrays, so any length runs; only the keyed one is what it was tuned for.
"""

import argparse
import json
import statistics
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.gpu.bench import Clock, empty_launch_us, l2_clear_mib_for  # noqa: E402
from generator.gpu.harness import import_submission  # noqa: E402
from generator.gpu.inputs import make_inputs, uniform_case  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("submission")
    parser.add_argument("runner", help="the runner function's name, e.g. run_b256_kv1024")
    parser.add_argument("batch", type=int)
    parser.add_argument("kv_lens", help="comma-separated KV lengths")
    parser.add_argument("--max-seconds", type=float, default=2.0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    module = import_submission(Path(args.submission).read_text())
    runner = getattr(module, args.runner)
    clock = Clock(l2_clear_mib_for("benchmark", None), "benchmark", args.max_seconds)
    rows = []
    for kv_len in [int(k) for k in args.kv_lens.split(",")]:
        q, kv_data, qo_indptr, kv_indptr, config = make_inputs(
            uniform_case("sweep", args.batch, kv_len), 1, "cuda", "e4m3fn")
        call = lambda: runner(q, kv_data, qo_indptr, kv_indptr, config)  # noqa: E731
        call()
        timing = clock.time(call, idle=False)
        rows.append({"kv_len": kv_len, "median_us": timing.median_us, "mean_us": timing.mean_us,
                     "runs": timing.runs})
        print(f"{args.runner} batch {args.batch} kv {kv_len}: {timing.median_us:.2f} us "
              f"(mean {timing.mean_us:.2f}, {timing.runs} runs)", flush=True)
    fit = {}
    if len(rows) >= 2:
        slope, intercept = statistics.linear_regression([r["kv_len"] for r in rows],
                                                        [r["median_us"] for r in rows])
        fit = {"us_per_64_rows": slope * 64, "intercept_us": intercept}
        print(f"fit: {intercept:.2f} us + {slope * 64:.3f} us per 64 KV rows")
    empty = empty_launch_us(clock)
    print(f"one tiny launch: {empty:.2f} us")
    if args.json:
        args.json.write_text(json.dumps({"runner": args.runner, "batch": args.batch, "rows": rows,
                                         "fit": fit, "empty_launch_us": empty}, indent=1) + "\n")


if __name__ == "__main__":
    main()
