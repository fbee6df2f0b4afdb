"""What the split-K merge costs each runner that has one: the runner timed as
`gen bench` times it, then again with its merge launch skipped (the output is
then wrong; only the time is of interest).

    python3 scripts/merge_cost.py build/h200/submission.py [--json out.json]

A runner's keyed shape is read from its name (run_b<batch>_kv<kv_len>); its
merge kernels are the module's kernels named mla_b<batch>_kv<kv_len>_*_merge.
"""

import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.gpu.bench import Clock, empty_launch_us, l2_clear_mib_for  # noqa: E402
from generator.gpu.harness import import_submission  # noqa: E402
from generator.gpu.inputs import make_inputs, uniform_case  # noqa: E402


class _Skipped:
    """Stands in for a kernel: `kernel[grid](...)` launches nothing."""

    def __getitem__(self, grid):
        return lambda *args, **kwargs: None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("submission")
    parser.add_argument("--max-seconds", type=float, default=2.0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    module = import_submission(Path(args.submission).read_text())
    clock = Clock(l2_clear_mib_for("benchmark", None), "benchmark", args.max_seconds)
    rows = []
    for name in sorted(vars(module)):
        shape = re.fullmatch(r"run_b(\d+)_kv(\d+)", name)
        if not shape:
            continue
        prefix = f"mla_b{shape[1]}_kv{shape[2]}_"
        merges = [k for k in vars(module) if k.startswith(prefix) and k.endswith("_merge")]
        if not merges:
            continue
        batch, kv_len = int(shape[1]), int(shape[2])
        data = make_inputs(uniform_case("merge-cost", batch, kv_len), 1, "cuda", "e4m3fn")
        runner = getattr(module, name)
        call = lambda: runner(*data)  # noqa: E731
        call()
        whole = clock.time(call, idle=False).median_us
        kept = {k: getattr(module, k) for k in merges}
        for k in merges:
            setattr(module, k, _Skipped())
        try:
            alone = clock.time(call, idle=False).median_us
        finally:
            for k, kernel in kept.items():
                setattr(module, k, kernel)
        rows.append({"runner": name, "batch": batch, "kv_len": kv_len, "whole_us": whole,
                     "without_merge_us": alone, "merge_us": whole - alone})
        print(f"{name}: {whole:.2f} us, {alone:.2f} without the merge: the merge costs "
              f"{whole - alone:.2f} us", flush=True)
    empty = empty_launch_us(clock)
    print(f"one tiny launch: {empty:.2f} us")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "empty_launch_us": empty}, indent=1) + "\n")


if __name__ == "__main__":
    main()
