"""Sixteenth session: does a CUDA graph replay of a call cost the benchmark's
timing less than the call's own launch? Each shape's runner of one build,
called directly and replayed from a graph captured once (same inputs, same
buffers), timed as gen bench times a call (2 GiB clear, events around it),
files and modes in a new seeded order every round, medians of RUNS calls;
beside them a one-program Triton kernel and nothing at all, both ways.
Outputs of the replay are compared with the direct call's (bit-identical
expected: same kernels, same inputs):

    python graph_probe.py OUT.json build.py [SHAPES=4x1024,...] [RUNS=300]
"""
import json
import os
import random
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

SHAPES = [(4, 1024), (4, 8192), (32, 1024), (32, 8192), (64, 1024), (64, 8192), (256, 1024), (256, 8192)]
RUNS = int(os.environ.get("RUNS", "300"))


@triton.jit
def tiny(OUT):
    pid = tl.program_id(0)
    tl.store(OUT + pid, pid)


def graph_of(fn):
    """fn captured once into a CUDA graph (after three warm calls on a side stream)."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        res = fn()
    return g, res


def timed(cases, scratch, flush, rng):
    times = {k: [] for k in cases}
    order = list(cases.items())
    for _ in range(RUNS):
        rng.shuffle(order)
        for k, f in order:
            times[k].append(call_us(f, scratch, flush, "dirty"))
    return {k: {"median_us": statistics.median(v), "mean_us": statistics.fmean(v)} for k, v in times.items()}


def main():
    out_path, build = Path(sys.argv[1]), Path(sys.argv[2])
    shapes = [tuple(map(int, s.split("x"))) for s in os.environ.get("SHAPES", "").split(",") if s] or SHAPES
    m = import_submission(build.read_text())
    scratch = torch.empty(2 << 30, dtype=torch.uint8, device="cuda")
    flush = torch.empty(256 << 20, dtype=torch.float32, device="cuda")
    rng = random.Random(0)
    res = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "runs": RUNS, "shapes": {}}

    buf = torch.zeros(1 << 12, dtype=torch.int32, device="cuda")
    g_tiny, _ = graph_of(lambda: tiny[(128,)](buf, num_warps=4))
    g_none = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g_none):
        pass
    row = timed({"tiny direct": lambda: tiny[(128,)](buf, num_warps=4), "tiny graph": g_tiny.replay,
                 "nothing": lambda: None, "empty graph": g_none.replay}, scratch, flush, rng)
    res["tiny"] = row
    print("tiny", json.dumps(row), flush=True)

    for batch, kv_len in shapes:
        i = SHAPES.index((batch, kv_len))
        case = uniform_case(f"b{batch}_kv{kv_len}", batch, kv_len)
        data = make_inputs(case, 100 + i, "cuda", "e4m3fn")
        direct = m.custom_kernel(data).clone()
        try:
            g, out = graph_of(lambda: m.custom_kernel(data))
        except Exception as e:  # noqa: BLE001 - a probe: report and go on
            print(case.name, "capture failed:", repr(e)[:300], flush=True)
            res["shapes"][case.name] = {"capture_error": repr(e)[:300]}
            torch.cuda.synchronize()
            continue
        g.replay()
        torch.cuda.synchronize()
        same = bool(torch.equal(out, direct))
        diff = float((out.float() - direct.float()).abs().max())
        row = timed({"direct": lambda: m.custom_kernel(data), "graph": g.replay}, scratch, flush, rng)
        row["replay_equals_direct"] = same
        row["max_abs_diff"] = diff
        res["shapes"][case.name] = row
        print(case.name, json.dumps(row), flush=True)
        del g, data
    out_path.write_text(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
