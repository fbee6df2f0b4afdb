"""What the benchmark's timing charges for a launch alone (fourteenth session): tiny kernels timed as
gen bench times a call (2 GiB L2 clear, then events around the launch), interleaved, medians of 300
calls each. Triton and Gluon kernels as the generated files launch them (plain, cooperative, with two
TMA descriptors among their arguments) against torch's own tiny kernels:
python launch_floor.py OUT.json"""
import json
import statistics
import sys

import torch
import triton
import triton.language as tl
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.nvidia.hopper import TensorDescriptor


@triton.jit
def tiny(OUT):
    pid = tl.program_id(0)
    tl.store(OUT + pid, pid)


@gluon.jit
def tiny_gluon(OUT, desc_a, desc_b):
    pid = gl.program_id(0)
    gl.store(OUT + pid, pid)


def main():
    out = torch.zeros(1 << 12, dtype=torch.int32, device="cuda")
    small = torch.zeros(128, dtype=torch.float32, device="cuda")
    kv = torch.zeros((8192, 576), dtype=torch.uint8, device="cuda").view(torch.float8_e4m3fn)
    layout = gl.NVMMASharedLayout.get_default_for([64, 64], gl.float8e4nv)
    da = TensorDescriptor(kv, list(kv.shape), list(kv.stride()), [64, 64], layout)
    clear = torch.empty(2 << 30, dtype=torch.uint8, device="cuda")
    cases = {
        "triton 128 programs": lambda: tiny[(128,)](out, num_warps=4),
        "triton 128 programs, cooperative": lambda: tiny[(128,)](out, num_warps=4, launch_cooperative_grid=True),
        "gluon 128 programs, 2 TMA descriptors": lambda: tiny_gluon[(128,)](out, da, da, num_warps=4),
        "gluon, 2 TMA descriptors, cooperative": lambda: tiny_gluon[(128,)](out, da, da, num_warps=4,
                                                                           launch_cooperative_grid=True),
        "torch zero_ (128 floats)": lambda: small.zero_(),
        "torch add_ (128 floats)": lambda: small.add_(1.0),
        "nothing": lambda: None,
    }
    times = {k: [] for k in cases}
    for f in cases.values():
        f()
    torch.cuda.synchronize()
    for _ in range(300):
        for k, f in cases.items():
            clear.fill_(1)
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            f()
            b.record()
            torch.cuda.synchronize()
            times[k].append(a.elapsed_time(b) * 1e3)
    res = {k: statistics.median(t) for k, t in times.items()}
    for k, t in res.items():
        print(f"{k:40s} {t:.2f} us (median of 300)")
    json.dump(res, open(sys.argv[1], "w"), indent=1)


if __name__ == "__main__":
    main()
