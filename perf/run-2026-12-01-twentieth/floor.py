"""Experiment (2026-12-01, twentieth session): the floor of the committed
design, shape by shape, timed in one process beside the committed build.

A Gluon skeleton of each shape's committed kernel that computes nothing: the
same grid (rows x splits x dv programs), the same contiguous tiles a program,
the same tiles in flight (the ring's stages; two rings of two for the
consumers-2 kernels), shared memory padded to the committed kernel's (as many
programs an SM), KV through TMA as 64 x 64 copies (as the tenth session's
stream.py). After its last tile:
  stream  each program stores an output of the committed size (16 KB) and ends;
  merge   (split shapes) each program stores its partial (the committed
          dtype) and log-sum-exps, arrives at its row's barrier (CTA barrier,
          acq_rel atomic), polls it (acquire), loads its share of every split's
          partial (.cg), weights and sums them and stores its share of the
          bf16 output: the committed barrier merge, on partials of ones.
So `merge` is what the committed design costs with no arithmetic on the
tiles (no Q, no scores, no softmax, no PV): kernel - merge is what the
compute adds. Calls interleaved round by round (the committed call, then
each skeleton, in a rotating order), timed as gen bench times them (2 GiB
clear, L2 dirty, events around the call); medians of RUNS.

    python3 perf/run-2026-12-01-twentieth/floor.py OUT.json build/h200/submission.py

No l2_policy hint in the skeletons (the committed kernels hint some shapes).
"""

import json
import os
import statistics
import sys
from pathlib import Path

import torch
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import mbarrier, tma
from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from generator.gpu.harness import import_submission  # noqa: E402
from generator.gpu.inputs import make_inputs, uniform_case  # noqa: E402
from scripts.l2_state import call_us  # noqa: E402

RUNS = int(os.environ.get("FLOOR_RUNS", "200"))
TILE_BYTES = 64 * 576
# (batch, kv_len): (splits, dv_split, stages in flight, shared bytes of the
# committed kernel, partial dtype) from specs/h200.yaml and build/h200/resources.json
PATTERNS = {
    (4, 1024): (16, 2, 1, 81160, torch.float32),
    (4, 8192): (32, 1, 2, 85264, torch.float16),
    (32, 1024): (4, 1, 2, 87440, torch.float16),
    (32, 8192): (4, 1, 4, 194440, torch.float16),
    (64, 1024): (2, 1, 3, 124312, torch.float16),
    (64, 8192): (2, 1, 4, 194440, torch.float16),
    (256, 1024): (1, 1, 2, 85264, None),
    (256, 8192): (1, 1, 2, 85264, None),
}
_LAYOUT = gl.NVMMASharedLayout.get_default_for([64, 64], gl.float8e4nv)


@gluon.constexpr_function
def _merge_layout(num_warps, splits, heads, dims):
    # the committed _gl_merge_layout
    vec = max(1, min(4, heads * dims // (32 * num_warps)))
    lanes_d = min(32, dims // vec)
    lanes_h = 32 // lanes_d
    warps_h = max(1, min(num_warps, heads // lanes_h))
    return gl.BlockedLayout([splits, 1, vec], [1, lanes_h, lanes_d], [1, warps_h, num_warps // warps_h], [2, 1, 0])


@gluon.jit
def _skeleton(desc, PART_O, PART_LSE, OUT, COUNTERS, ROW_TILES: gl.constexpr, TILES: gl.constexpr,
              STAGES: gl.constexpr, PAD: gl.constexpr, SPLITS: gl.constexpr, DV: gl.constexpr,
              MERGE: gl.constexpr):
    row = gl.program_id(0)
    pm = gl.program_id(1)
    split = pm // DV
    half = pm % DV
    ring = gl.allocate_shared_memory(gl.float8e4nv, [STAGES * 9, 64, 64], _LAYOUT)
    pad = gl.allocate_shared_memory(gl.float8e4nv, [PAD, 64, 64], _LAYOUT)
    bars = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    for k in gl.static_range(STAGES):
        mbarrier.init(bars.index(k), count=1)
    row0 = (row * ROW_TILES + split * TILES) * 64
    for k in gl.static_range(STAGES):
        if k < TILES:
            mbarrier.expect(bars.index(k), 64 * 576)
            for c in gl.static_range(9):
                tma.async_copy_global_to_shared(desc, [row0 + k * 64, c * 64], bars.index(k), ring.index(k * 9 + c))
    for i in range(TILES):
        stage = i % STAGES
        mbarrier.wait(bars.index(stage), (i // STAGES) & 1)
        gl.thread_barrier()
        nxt = i + STAGES
        if nxt < TILES:
            mbarrier.expect(bars.index(stage), 64 * 576)
            for c in gl.static_range(9):
                tma.async_copy_global_to_shared(desc, [row0 + nxt * 64, c * 64], bars.index(stage),
                                                ring.index(stage * 9 + c))
    gl.thread_barrier()
    # (the padding kept: a tile's first chunk copied into its last block)
    c_layout: gl.constexpr = gl.BlockedLayout([1, 16], [8, 4], [gl.num_warps(), 1], [1, 0])
    pad.index(PAD - 1).store(ring.index(0).load(c_layout))
    W: gl.constexpr = 512 // DV
    o_layout: gl.constexpr = gl.BlockedLayout([1, 8], [2, 16], [gl.num_warps(), 1], [1, 0])
    offs_h = gl.arange(0, 16, layout=gl.SliceLayout(1, o_layout))
    offs_w = gl.arange(0, W, layout=gl.SliceLayout(0, o_layout))
    if MERGE:
        x = gl.full([16, W], 1.0, PART_O.dtype.element_ty, o_layout)
        gl.store(PART_O + (split * gl.num_programs(0) + row) * 8192 + offs_h[:, None] * 512 + half * W
                 + offs_w[None, :], x)
        gl.store(PART_LSE + (split * gl.num_programs(0) + row) * 16 + offs_h, gl.zeros([16], gl.float32,
                 gl.SliceLayout(1, o_layout)))
        SHARES: gl.constexpr = SPLITS * DV
        gl.thread_barrier()
        arrived = gl.atomic_add(COUNTERS + row, 1, sem="acq_rel", scope="gpu")
        target = (arrived // SHARES + 1) * SHARES
        count = arrived + 1
        while count < target:
            count = gl.atomic_add(COUNTERS + row, 0, sem="acquire", scope="gpu")
        gl.thread_barrier()
        DIMS: gl.constexpr = 512 // SHARES
        layout: gl.constexpr = _merge_layout(gl.num_warps(), SPLITS, 16, DIMS)
        sh_layout: gl.constexpr = gl.SliceLayout(2, layout)
        hd_layout: gl.constexpr = gl.SliceLayout(0, layout)
        offs_s = gl.arange(0, SPLITS, layout=gl.SliceLayout(1, sh_layout))
        offs_sh = gl.arange(0, 16, layout=gl.SliceLayout(0, sh_layout))
        lse = gl.load(PART_LSE + row * 16 + offs_s[:, None] * (gl.num_programs(0) * 16) + offs_sh[None, :],
                      cache_modifier=".cg")
        offs_mh = gl.arange(0, 16, layout=gl.SliceLayout(1, hd_layout))
        offs_d = pm * DIMS + gl.arange(0, DIMS, layout=gl.SliceLayout(0, hd_layout))
        hd = offs_mh[:, None] * 512 + offs_d[None, :]
        part = gl.load(PART_O + row * 8192 + offs_s[:, None, None] * (gl.num_programs(0) * 8192) + hd[None, :, :],
                       cache_modifier=".cg")
        m = gl.max(lse, axis=0)
        w = gl.exp2(lse - gl.where(m == float("-inf"), 0.0, m)[None, :])
        w_sum = gl.sum(w, axis=0)
        w = w / gl.where(w_sum > 0, w_sum, 1.0)[None, :]
        out = gl.sum(part.to(gl.float32) * w[:, :, None], axis=0)
        gl.store(OUT + row * 8192 + offs_mh[:, None] * 512 + offs_d[None, :], out.to(gl.bfloat16))
    else:
        x = gl.full([16, W], 1.0, gl.bfloat16, o_layout)
        gl.store(OUT + (split * gl.num_programs(0) + row) * 8192 + offs_h[:, None] * 512 + half * W
                 + offs_w[None, :], x)


def skeletons(batch, kv_len, kv):
    """The shape's skeleton calls by name, on the given KV (fp8, rows x 576)."""
    splits, dv, stages, smem, part_dtype = PATTERNS[(batch, kv_len)]
    row_tiles = kv_len // 64
    tiles = row_tiles // splits
    pad = max(1, round((smem - stages * TILE_BYTES - 2048) / 4096))
    desc = TensorDescriptor(kv, list(kv.shape), list(kv.stride()), [64, 64], _LAYOUT)
    dev = kv.device
    part_o = torch.empty((splits, batch, 16, 512), dtype=part_dtype or torch.float32, device=dev)
    part_lse = torch.empty((splits, batch, 16), dtype=torch.float32, device=dev)
    out = torch.empty((splits, batch, 16, 512), dtype=torch.bfloat16, device=dev)
    counters = torch.zeros((batch,), dtype=torch.int64, device=dev)
    grid = (batch, splits * dv)
    calls = {"stream": lambda: _skeleton[grid](desc, part_o, part_lse, out, counters, row_tiles, tiles, stages,
                                               pad, splits, dv, False, num_warps=4)}
    if splits > 1:
        calls["merge"] = lambda: _skeleton[grid](desc, part_o, part_lse, out, counters, row_tiles, tiles, stages,
                                                 pad, splits, dv, True, num_warps=4, launch_cooperative_grid=True)
    return calls, out


def main() -> None:
    out_path, build = Path(sys.argv[1]), sys.argv[2]
    module = import_submission(Path(build).read_text())
    scratch = torch.empty(2 << 30, dtype=torch.uint8, device="cuda")
    flush = torch.empty(256 << 20, dtype=torch.float32, device="cuda")
    results = {"device": torch.cuda.get_device_name(), "runs": RUNS, "shapes": {}}
    for i, (batch, kv_len) in enumerate(PATTERNS):
        case = uniform_case(f"b{batch}_kv{kv_len}", batch, kv_len)
        data = make_inputs(case, 100 + i, "cuda", "e4m3fn")
        kv = data[1]["fp8"][0].reshape(-1, 576)
        sk, _ = skeletons(batch, kv_len, kv)
        calls = {"kernel": lambda: module.custom_kernel(data), **sk}
        for fn in calls.values():
            for _ in range(3):
                fn()
        torch.cuda.synchronize()
        names = list(calls)
        times = {n: [] for n in names}
        for r in range(RUNS):
            for k in range(len(names)):
                n = names[(r + k) % len(names)]
                times[n].append(call_us(calls[n], scratch, flush, "dirty"))
        row = {n: statistics.median(v) for n, v in times.items()}
        results["shapes"][case.name] = row
        print(case.name.ljust(12), "  ".join(f"{k} {v:8.2f}" for k, v in row.items()), flush=True)
        del data
    names = ["kernel", "stream", "merge"]
    geo = {}
    for n in names:
        vals = [row.get(n, row["stream"]) for row in results["shapes"].values()]
        geo[n] = statistics.geometric_mean(vals)
    results["geomean"] = geo
    print("geomean (merge: the split shapes' merge skeleton, the others' stream)",
          "  ".join(f"{k} {v:.2f}" for k, v in geo.items()), flush=True)
    out_path.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
