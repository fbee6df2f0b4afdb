"""Experiment material: one-process A/B timing of several submission files.

    python .lab/ab.py OUT.json DIR [ROUNDS] [RUNS]

DIR holds base_a.py, base_b.py and <shape tag>__<variant>.py (mkvar.py). For
each shape: the two base copies and that shape's variants, the files in a new
seeded order every call round, each timed call after a 2 GiB zero (L2 left
dirty, as gen bench leaves it), medians of RUNS calls a file, ROUNDS rounds.
Also per file and shape: distinct outputs over DET_CALLS calls on one input.
"""

import json
import os
import random
import statistics
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.gpu.harness import import_submission  # noqa: E402
from generator.gpu.inputs import make_inputs, uniform_case  # noqa: E402

SHAPES = [(4, 1024), (4, 8192), (32, 1024), (32, 8192), (64, 1024), (64, 8192), (256, 1024), (256, 8192)]
DET_CALLS = int(os.environ.get("DET_CALLS", "40"))


def call_us(fn, scratch):
    torch.cuda.synchronize()
    scratch.zero_()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) * 1000.0


def distinct(fn, calls):
    outs = set()
    first = None
    worst = 0.0
    for _ in range(calls):
        o = fn().clone()
        outs.add(hash(o.view(torch.int16).cpu().numpy().tobytes()))
        if first is None:
            first = o
        else:
            worst = max(worst, (o.float() - first.float()).abs().max().item())
    return len(outs), worst


def main():
    out_path, d = Path(sys.argv[1]), Path(sys.argv[2])
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 300
    index = json.loads((d / "variants.json").read_text())
    modules = {n: import_submission((d / f"{n}.py").read_text()) for n in index}
    scratch = torch.empty(2 << 30, dtype=torch.uint8, device="cuda")
    rng = random.Random(0)
    res = {"device": torch.cuda.get_device_name(), "runs": runs, "rounds": {}, "det": {}}
    only = [s for s in os.environ.get("AB_SHAPES", "").split(",") if s]
    for i, (b, kv) in enumerate(SHAPES):
        tag = f"b{b}_kv{kv}"
        if only and tag not in only:
            continue
        names = [n for n, (t, _) in index.items() if t in (None, tag)]
        case = uniform_case(tag, b, kv)
        data = make_inputs(case, 100 + i, "cuda", "e4m3fn")
        for n in names:
            for _ in range(3):
                modules[n].custom_kernel(data)
        torch.cuda.synchronize()
        for n in names:
            res["det"][f"{tag}.{n}"] = distinct(lambda m=modules[n]: m.custom_kernel(data), DET_CALLS)
        for r in range(rounds):
            times = {n: [] for n in names}
            order = list(names)
            for _ in range(runs):
                rng.shuffle(order)
                for n in order:
                    times[n].append(call_us(lambda m=modules[n]: m.custom_kernel(data), scratch))
            row = {n: statistics.median(v) for n, v in times.items()}
            res["rounds"].setdefault(tag, []).append(row)
            base = (row["base_a"] + row["base_b"]) / 2
            print(f"{tag} round {r}: " + "  ".join(f"{n.split('__')[-1]} {v:.2f} ({v - base:+.2f})"
                                                    for n, v in row.items()), flush=True)
        print(f"{tag} det: " + "  ".join(f"{n.split('__')[-1]} {res['det'][f'{tag}.{n}'][0]}"
                                         for n in names), flush=True)
        del data
        out_path.write_text(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
