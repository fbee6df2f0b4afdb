"""Experiment (2026-12-01): how long does reading a shape's KV take with no
compute at all, timed as gen bench times a call (L2 dirty from the clear)?

A Gluon kernel streams fp8 KV rows through a TMA ring laid out as the
committed kernels lay it out (programs x tiles of 64 rows x 576 bytes, each
program's tiles contiguous, STAGES tiles in flight, shared memory padded to
the committed kernel's so that as many programs share an SM), waits for every
tile and does nothing else: the memory floor of that access pattern under
this timing, launch included. The committed build's own calls are timed in
the same process, interleaved, for comparison, and an empty kernel of the
same grid gives the launch floor.

    python3 perf/run-2026-12-01-small/stream.py OUT.json build/h200/submission.py [--stamps]

--stamps: instead, each stream program (2-tile ring) writes %globaltimer at
entry (slot 0), when its first tile is in (3), when its last tile is in (4)
and at its end (5), reduced as gen timeline reduces a kernel's stamps (slots
named as there), to set beside `gen timeline` of the committed spec.
"""

import json
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
from generator.gpu.timeline import combine, reduce_call  # noqa: E402
from scripts.l2_state import call_us  # noqa: E402

RUNS = 100
# shape: (programs, tiles a program, ring depths to try, shared bytes of the
# committed kernel: sets programs per SM)
PATTERNS = {
    (4, 1024): (64, 1, (1, 2), 81160),
    (4, 8192): (128, 4, (2, 4), 118032),
    (32, 1024): (128, 4, (2, 4), 118032),
    (32, 8192): (128, 32, (2, 4), 194000),
    (64, 1024): (128, 8, (2, 4), 194000),
    (64, 8192): (128, 64, (2, 4), 194000),
    (256, 1024): (256, 16, (2,), 85000),
    (256, 8192): (256, 128, (2,), 85000),
}
TILE_BYTES = 64 * 576
_LAYOUT = gl.NVMMASharedLayout.get_default_for([64, 64], gl.float8e4nv)


@gluon.jit
def _stamp(STAMPS, SLOT: gl.constexpr, dep):
    t = gl.inline_asm_elementwise("mov.u64 $0, %globaltimer;", "=l,r", [dep], dtype=gl.int64, is_pure=False, pack=1)
    gl.store(STAMPS + gl.program_id(0) * 16 + SLOT, t)


@gluon.jit
def _tile_dep(ring, stage):
    layout: gl.constexpr = gl.BlockedLayout([1, 16], [8, 4], [gl.num_warps(), 1], [1, 0])
    return gl.max(gl.max(ring.index(stage * 9).load(layout).to(gl.float32), axis=1), axis=0).to(gl.int32)


@gluon.jit
def _stream(desc, OUT, STAMPS, TILES: gl.constexpr, STAGES: gl.constexpr, PAD: gl.constexpr,
            STAMP: gl.constexpr):
    pid = gl.program_id(0)
    if STAMP:
        _stamp(STAMPS, 0, pid)
        gl.store(STAMPS + pid * 16 + 15, TILES)
    ring = gl.allocate_shared_memory(gl.float8e4nv, [STAGES * 9, 64, 64], _LAYOUT)
    pad = gl.allocate_shared_memory(gl.float8e4nv, [PAD, 64, 64], _LAYOUT)
    bars = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    for k in gl.static_range(STAGES):
        mbarrier.init(bars.index(k), count=1)
    row0 = pid * (TILES * 64)
    for k in gl.static_range(STAGES):
        if k < TILES:
            mbarrier.expect(bars.index(k), 64 * 576)
            for c in gl.static_range(9):
                tma.async_copy_global_to_shared(desc, [row0 + k * 64, c * 64], bars.index(k), ring.index(k * 9 + c))
    for i in range(TILES):
        stage = i % STAGES
        mbarrier.wait(bars.index(stage), (i // STAGES) & 1)
        gl.thread_barrier()
        if STAMP:
            if i == 0:
                _stamp(STAMPS, 3, _tile_dep(ring, stage))
            if i == TILES - 1:
                _stamp(STAMPS, 4, _tile_dep(ring, stage))
        nxt = i + STAGES
        if nxt < TILES:
            mbarrier.expect(bars.index(stage), 64 * 576)
            for c in gl.static_range(9):
                tma.async_copy_global_to_shared(desc, [row0 + nxt * 64, c * 64], bars.index(stage),
                                                ring.index(stage * 9 + c))
    layout: gl.constexpr = gl.BlockedLayout([1, 16], [8, 4], [gl.num_warps(), 1], [1, 0])
    pad.index(PAD - 1).store(ring.index(0).load(layout))
    v = pad.index(PAD - 1).load(layout).to(gl.float32)
    total = gl.sum(gl.sum(v, axis=1), axis=0)
    gl.store(OUT + pid, total)
    if STAMP:
        _stamp(STAMPS, 5, total.to(gl.int32))


@gluon.jit
def _empty(OUT):
    gl.store(OUT + gl.program_id(0), 1.0)


def stamped(out_path: Path) -> None:
    """Each pattern's stream (2-tile ring), stamped, reduced as gen timeline does."""
    scratch = torch.empty(2 << 30, dtype=torch.uint8, device="cuda")
    flush = torch.empty(256 << 20, dtype=torch.float32, device="cuda")
    stamps = torch.zeros((1 << 12, 16), dtype=torch.int64, device="cuda")
    results = {"device": torch.cuda.get_device_name(), "shapes": {}}
    for (batch, kv_len), (programs, tiles, _, smem) in PATTERNS.items():
        kv = torch.zeros((programs * tiles * 64, 576), dtype=torch.uint8, device="cuda").view(torch.float8_e4m3fn)
        desc = TensorDescriptor(kv, list(kv.shape), list(kv.stride()), [64, 64], _LAYOUT)
        out = torch.empty(programs, dtype=torch.float32, device="cuda")
        pad = max(1, round((smem - 2 * TILE_BYTES - 2048) / 4096))

        def call():
            _stream[(programs,)](desc, out, stamps, tiles, 2, pad, True, num_warps=4)

        for _ in range(3):
            call()
        calls = []
        for _ in range(40):
            stamps.zero_()
            event = call_us(call, scratch, flush, "dirty")
            calls.append(reduce_call(stamps.cpu(), event))
        results["shapes"][f"b{batch}_kv{kv_len}"] = row = combine(calls)
        print(f"b{batch}_kv{kv_len}", json.dumps(row), flush=True)
    out_path.write_text(json.dumps(results, indent=1))


def main() -> None:
    if "--stamps" in sys.argv:
        stamped(Path(sys.argv[1]))
        return
    out_path, build = Path(sys.argv[1]), sys.argv[2]
    module = import_submission(Path(build).read_text())
    scratch = torch.empty(2 << 30, dtype=torch.uint8, device="cuda")
    flush = torch.empty(256 << 20, dtype=torch.float32, device="cuda")
    results = {"device": torch.cuda.get_device_name(), "runs": RUNS, "shapes": {}}
    for i, ((batch, kv_len), (programs, tiles, depths, smem)) in enumerate(PATTERNS.items()):
        case = uniform_case(f"b{batch}_kv{kv_len}", batch, kv_len)
        data = make_inputs(case, 100 + i, "cuda", "e4m3fn")
        kv = data[1]["fp8"][0].reshape(-1, 576)
        assert kv.shape[0] == programs * tiles * 64
        desc = TensorDescriptor(kv, list(kv.shape), list(kv.stride()), [64, 64], _LAYOUT)
        out = torch.empty(programs, dtype=torch.float32, device="cuda")
        calls = {"kernel": lambda: module.custom_kernel(data),
                 "empty": lambda: _empty[(programs,)](out, num_warps=4)}
        for depth in depths:
            pad = max(1, round((smem - depth * TILE_BYTES - 2048) / 4096))  # 4 KB blocks
            calls[f"stream{depth}"] = (lambda d=depth, p=pad:
                                       _stream[(programs,)](desc, out, out, tiles, d, p, False, num_warps=4))
        for fn in calls.values():
            for _ in range(3):
                fn()
        torch.cuda.synchronize()
        times = {n: [] for n in calls}
        for _ in range(RUNS):
            for n, fn in calls.items():
                times[n].append(call_us(fn, scratch, flush, "dirty"))
        row = {n: statistics.median(v) for n, v in times.items()}
        row["bytes"] = kv.numel()
        results["shapes"][case.name] = row
        print(case.name.ljust(12), "  ".join(f"{k} {v:8.2f}" for k, v in row.items() if k != "bytes"),
              f"  ({kv.numel() / 1e6:.1f} MB)", flush=True)
        del data
    out_path.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
