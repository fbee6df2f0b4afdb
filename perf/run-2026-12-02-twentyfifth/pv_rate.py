"""What does the PV product cost as fp8 wgmmas (P rounded to e4m3) against fp16?

Each program (one warpgroup) repeats ITERS times one tile's PV work, on
operands that are never written (the sums are stored so nothing is dropped):
- f16: O^T += V^T P^T as the kernel does it: 4 groups of 8 HGMMA 64x16x16,
  A (V^T, fp16) from registers, B (P, fp16, MN-major) from shared memory,
  each group waited for before the next;
- f8: the same product as 2 groups of 8 QGMMA 64x16x32, A (V^T, e4m3) from
  registers, B (P in e4m3, K-major: stored (heads, KV rows)) from shared
  memory, each group waited for before the next.
One program an SM (grid 132) and two (grid 264).

python3 pv_rate.py OUT.json        on the GPU
python3 pv_rate.py --compile       sm90 compile only (CPU): registers, MMA opcodes
"""

import json
import sys

import torch
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import warpgroup_mma, warpgroup_mma_wait

FP8 = gl.float8e4nv


@gluon.jit
def _group(a0, a1, a2, a3, a4, a5, a6, a7, p_j, o0, o1, o2, o3, o4, o5, o6, o7):
    o0 = warpgroup_mma(a0, p_j, o0, is_async=True)
    o1 = warpgroup_mma(a1, p_j, o1, is_async=True)
    o2 = warpgroup_mma(a2, p_j, o2, is_async=True)
    o3 = warpgroup_mma(a3, p_j, o3, is_async=True)
    o4 = warpgroup_mma(a4, p_j, o4, is_async=True)
    o5 = warpgroup_mma(a5, p_j, o5, is_async=True)
    o6 = warpgroup_mma(a6, p_j, o6, is_async=True)
    o7 = warpgroup_mma(a7, p_j, o7, is_async=True)
    return warpgroup_mma_wait(num_outstanding=0, deps=(o0, o1, o2, o3, o4, o5, o6, o7))


@gluon.jit
def pv_rate(out, ITERS: gl.constexpr, F8: gl.constexpr):
    if F8:
        o_l: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 16, 32])
        a_l: gl.constexpr = gl.DotOperandLayout(operand_index=0, parent=o_l, k_width=4)
        KS: gl.constexpr = 32
        dt: gl.constexpr = FP8
        # P as (heads, KV rows): K-major, as an fp8 wgmma's B must be
        p_s = gl.allocate_shared_memory(FP8, [16, 64], gl.NVMMASharedLayout.get_default_for([16, 64], FP8))
    else:
        o_l: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 16, 16])
        a_l: gl.constexpr = gl.DotOperandLayout(operand_index=0, parent=o_l, k_width=2)
        KS: gl.constexpr = 16
        dt: gl.constexpr = gl.float16
        p_s = gl.allocate_shared_memory(gl.float16, [64, 16],
                                        gl.NVMMASharedLayout.get_default_for([64, 16], gl.float16))
    o0 = gl.zeros([64, 16], gl.float32, o_l)
    o1 = gl.zeros([64, 16], gl.float32, o_l)
    o2 = gl.zeros([64, 16], gl.float32, o_l)
    o3 = gl.zeros([64, 16], gl.float32, o_l)
    o4 = gl.zeros([64, 16], gl.float32, o_l)
    o5 = gl.zeros([64, 16], gl.float32, o_l)
    o6 = gl.zeros([64, 16], gl.float32, o_l)
    o7 = gl.zeros([64, 16], gl.float32, o_l)
    a0 = gl.full([64, KS], 0.5, gl.float16, a_l).to(dt)
    a1 = gl.full([64, KS], 0.25, gl.float16, a_l).to(dt)
    a2 = gl.full([64, KS], 0.125, gl.float16, a_l).to(dt)
    a3 = gl.full([64, KS], 1.0, gl.float16, a_l).to(dt)
    a4 = gl.full([64, KS], 0.5, gl.float16, a_l).to(dt)
    a5 = gl.full([64, KS], 0.25, gl.float16, a_l).to(dt)
    a6 = gl.full([64, KS], 0.125, gl.float16, a_l).to(dt)
    a7 = gl.full([64, KS], 1.0, gl.float16, a_l).to(dt)
    for it in range(ITERS):
        for j in gl.static_range(64 // KS):
            if F8:
                p_j = p_s.slice(j * KS, KS, dim=1).permute((1, 0))
            else:
                p_j = p_s.slice(j * KS, KS)
            o0, o1, o2, o3, o4, o5, o6, o7 = _group(a0, a1, a2, a3, a4, a5, a6, a7, p_j,
                                                    o0, o1, o2, o3, o4, o5, o6, o7)
    o = o0 + o1 + o2 + o3 + o4 + o5 + o6 + o7
    gl.store(out + gl.program_id(0), gl.sum(gl.sum(o, axis=1), axis=0))


CASES = [0, 1]


def compile_only():
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.experimental.gluon._runtime import GluonASTSource
    sys.path.insert(0, "../..")
    from generator.resources.aot import _cuda_figures
    for f8 in CASES:
        src = GluonASTSource(pv_rate, {"out": "*fp32", "ITERS": "constexpr", "F8": "constexpr"},
                             {(1,): 100, (2,): f8}, {})
        k = triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": 4})
        f = _cuda_figures(k)
        print(f8, {x: f.get(x) for x in ("registers", "spilled_registers", "shared_bytes", "mma")}, flush=True)


def main(path):
    out = torch.zeros(1024, device="cuda")
    iters = 2000
    res = []
    for f8 in CASES:
        for grid in (132, 264):
            pv_rate[(grid,)](out, ITERS=iters, F8=f8, num_warps=4)
            torch.cuda.synchronize()
            times = []
            for _ in range(5):
                a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                a.record()
                pv_rate[(grid,)](out, ITERS=iters, F8=f8, num_warps=4)
                b.record()
                torch.cuda.synchronize()
                times.append(a.elapsed_time(b) * 1e3)
            us = sorted(times)[2]
            r = {"f8": f8, "programs_per_sm": grid // 132, "us": us, "us_per_tile_per_program": us / iters,
                 "us_per_tile_per_sm": us / iters / (grid // 132)}
            print(json.dumps(r), flush=True)
            res.append(r)
    json.dump({"iters": iters, "results": res}, open(path, "w"), indent=1)


if __name__ == "__main__":
    if sys.argv[1] == "--compile":
        compile_only()
    else:
        main(sys.argv[1])
