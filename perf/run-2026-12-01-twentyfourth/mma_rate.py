"""How fast does one SM run the attention loop's wgmmas, with nothing else?

Each program (one warpgroup) repeats ITERS times one tile's worth of the
gluon kernel's MMA work, on shared-memory operands that are never written
(the values do not matter; the sums are stored so nothing is dropped):
- scores: S^T = K Q^T, 9 chunks of 64 x 64 fp8 as three chains of 3 chunks
  (18 QGMMA 64xNx32, A and B from shared memory), waited for once;
- pv: O^T += V^T P^T, 4 groups of 8 HGMMA 64xNx16 (A from registers, B
  from shared memory), each group waited for before the next;
- tile: both, in that order.
N = 16 is the kernel's (16 heads); N = 32 and 64 (where they fit) show how an instruction's
cost grows with N. One program an SM (grid 132) and two (grid 264).

python3 mma_rate.py OUT.json            on the GPU
python3 mma_rate.py --compile           sm90 compile only (CPU): registers
python3 mma_rate.py --case 16 1 1 264   one case, three launches (for ncu)
"""

import json
import sys

import torch
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import warpgroup_mma, warpgroup_mma_wait

FP8 = gl.float8e4nv


@gluon.jit
def _scores(a_s, b_s, s0, s1, s2):
    s0 = warpgroup_mma(a_s.index(0), b_s.index(0).permute((1, 0)), s0, use_acc=False, is_async=True)
    s1 = warpgroup_mma(a_s.index(3), b_s.index(3).permute((1, 0)), s1, use_acc=False, is_async=True)
    s2 = warpgroup_mma(a_s.index(6), b_s.index(6).permute((1, 0)), s2, use_acc=False, is_async=True)
    for c in gl.static_range(1, 3):
        s0 = warpgroup_mma(a_s.index(c), b_s.index(c).permute((1, 0)), s0, is_async=True)
        s1 = warpgroup_mma(a_s.index(3 + c), b_s.index(3 + c).permute((1, 0)), s1, is_async=True)
        s2 = warpgroup_mma(a_s.index(6 + c), b_s.index(6 + c).permute((1, 0)), s2, is_async=True)
    return warpgroup_mma_wait(num_outstanding=0, deps=(s0, s1, s2))


@gluon.jit
def _pv(p_s, a0, a1, a2, a3, a4, a5, a6, a7, o0, o1, o2, o3, o4, o5, o6, o7):
    for j in gl.static_range(4):
        p_j = p_s.slice(j * 16, 16)
        o0 = warpgroup_mma(a0, p_j, o0, is_async=True)
        o1 = warpgroup_mma(a1, p_j, o1, is_async=True)
        o2 = warpgroup_mma(a2, p_j, o2, is_async=True)
        o3 = warpgroup_mma(a3, p_j, o3, is_async=True)
        o4 = warpgroup_mma(a4, p_j, o4, is_async=True)
        o5 = warpgroup_mma(a5, p_j, o5, is_async=True)
        o6 = warpgroup_mma(a6, p_j, o6, is_async=True)
        o7 = warpgroup_mma(a7, p_j, o7, is_async=True)
        o0, o1, o2, o3, o4, o5, o6, o7 = warpgroup_mma_wait(num_outstanding=0,
                                                            deps=(o0, o1, o2, o3, o4, o5, o6, o7))
    return o0, o1, o2, o3, o4, o5, o6, o7


@gluon.jit
def mma_rate(out, ITERS: gl.constexpr, N: gl.constexpr, SCORES: gl.constexpr, PV: gl.constexpr):
    s_l: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, N, 32])
    o_l: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, N, 16])
    a_l: gl.constexpr = gl.DotOperandLayout(operand_index=0, parent=o_l, k_width=2)
    a_s = gl.allocate_shared_memory(FP8, [9, 64, 64], gl.NVMMASharedLayout.get_default_for([64, 64], FP8))
    b_s = gl.allocate_shared_memory(FP8, [9, N, 64], gl.NVMMASharedLayout.get_default_for([N, 64], FP8))
    p_s = gl.allocate_shared_memory(gl.float16, [64, N], gl.NVMMASharedLayout.get_default_for([64, N], gl.float16))
    s0 = gl.zeros([64, N], gl.float32, s_l)
    s1 = gl.zeros([64, N], gl.float32, s_l)
    s2 = gl.zeros([64, N], gl.float32, s_l)
    t = gl.zeros([64, N], gl.float32, s_l)
    o0 = gl.zeros([64, N], gl.float32, o_l)
    o1 = gl.zeros([64, N], gl.float32, o_l)
    o2 = gl.zeros([64, N], gl.float32, o_l)
    o3 = gl.zeros([64, N], gl.float32, o_l)
    o4 = gl.zeros([64, N], gl.float32, o_l)
    o5 = gl.zeros([64, N], gl.float32, o_l)
    o6 = gl.zeros([64, N], gl.float32, o_l)
    o7 = gl.zeros([64, N], gl.float32, o_l)
    a0 = gl.full([64, 16], 0.5, gl.float16, a_l)
    a1 = gl.full([64, 16], 0.25, gl.float16, a_l)
    a2 = gl.full([64, 16], 0.125, gl.float16, a_l)
    a3 = gl.full([64, 16], 1.0, gl.float16, a_l)
    a4 = gl.full([64, 16], 0.5, gl.float16, a_l)
    a5 = gl.full([64, 16], 0.25, gl.float16, a_l)
    a6 = gl.full([64, 16], 0.125, gl.float16, a_l)
    a7 = gl.full([64, 16], 1.0, gl.float16, a_l)
    for it in range(ITERS):
        if SCORES:
            s0, s1, s2 = _scores(a_s, b_s, s0, s1, s2)
            t += s0 + s1 + s2
        if PV:
            o0, o1, o2, o3, o4, o5, o6, o7 = _pv(p_s, a0, a1, a2, a3, a4, a5, a6, a7,
                                                 o0, o1, o2, o3, o4, o5, o6, o7)
    total = gl.sum(gl.sum(t, axis=1), axis=0)
    o = o0 + o1 + o2 + o3 + o4 + o5 + o6 + o7
    total += gl.sum(gl.sum(o, axis=1), axis=0)
    gl.store(out + gl.program_id(0), total)


CASES = [(16, 1, 0), (16, 0, 1), (16, 1, 1), (32, 1, 0), (32, 0, 1), (64, 1, 0)]  # no spill


def compile_only():
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.experimental.gluon._runtime import GluonASTSource
    for n, sc, pv in CASES:
        src = GluonASTSource(mma_rate, {"out": "*fp32", "ITERS": "constexpr", "N": "constexpr",
                                        "SCORES": "constexpr", "PV": "constexpr"},
                             {(1,): 100, (2,): n, (3,): sc, (4,): pv}, {})
        k = triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": 4})
        sys.path.insert(0, "../..")
        from generator.resources.aot import _cuda_figures
        f = _cuda_figures(k)
        print(n, sc, pv, {x: f.get(x) for x in ("registers", "spilled_registers", "shared_bytes")},
              (f.get("main_loop") or {}).get("opcodes"), flush=True)


def main(path):
    out = torch.zeros(1024, device="cuda")
    clock = torch.cuda.clock_rate() if hasattr(torch.cuda, "clock_rate") else None
    iters = 2000
    res = []
    for n, sc, pv in CASES:
        for grid in (132, 264):
            mma_rate[(grid,)](out, ITERS=iters, N=n, SCORES=sc, PV=pv, num_warps=4)
            torch.cuda.synchronize()
            times = []
            for _ in range(5):
                a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                a.record()
                mma_rate[(grid,)](out, ITERS=iters, N=n, SCORES=sc, PV=pv, num_warps=4)
                b.record()
                torch.cuda.synchronize()
                times.append(a.elapsed_time(b) * 1e3)
            us = sorted(times)[2]
            per_tile = us / iters
            r = {"N": n, "scores": sc, "pv": pv, "programs_per_sm": grid // 132, "us": us,
                 "us_per_tile_per_program": per_tile, "us_per_tile_per_sm": per_tile / (grid // 132)}
            print(json.dumps(r), flush=True)
            res.append(r)
    json.dump({"clock_khz": clock, "iters": iters, "results": res}, open(path, "w"), indent=1)


if __name__ == "__main__":
    if sys.argv[1] == "--compile":
        compile_only()
    elif sys.argv[1] == "--case":  # N SCORES PV GRID: one case, three launches (for a profiler)
        n, sc, pv, grid = map(int, sys.argv[2:6])
        out = torch.zeros(1024, device="cuda")
        for _ in range(3):
            mma_rate[(grid,)](out, ITERS=2000, N=n, SCORES=sc, PV=pv, num_warps=4)
        torch.cuda.synchronize()
    else:
        main(sys.argv[1])
