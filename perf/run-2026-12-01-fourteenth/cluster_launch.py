"""What a thread-block cluster launch costs (fourteenth session): a one-warp Gluon kernel that stores
one value per program, 128 programs, launched in clusters of 1, 2, 4, 8 and 16 (the generated file's
mechanism: a PTX mark that sets the compiled kernel's num_ctas), timed as gen bench times a call
(2 GiB L2 clear, then events around the launch), interleaved, medians of 300 calls each:
python cluster_launch.py OUT.json"""
import json
import re
import statistics
import sys

import torch
from triton import knobs
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

_MARK = re.compile(r"// mla-cluster (\d+)\b")


def _edit(ptx, metadata):
    mark = _MARK.search(ptx)
    if mark is not None:
        metadata["num_ctas"] = int(mark[1])
    return ptx


def _hook(backend, stages, options, language, capability):
    make_ptx = stages.get("ptx")
    if make_ptx is not None:
        stages["ptx"] = lambda src, metadata: _edit(make_ptx(src, metadata), metadata)


knobs.runtime.add_stages_inspection_hook = _hook


@gluon.constexpr_function
def _mark(n):
    return f"// mla-cluster {n}\n\tmov.b32 $0, $1;"


@gluon.jit
def probe(OUT, SIZE: gl.constexpr):
    pid = gl.program_id(0)
    if SIZE > 1:
        gl.inline_asm_elementwise(_mark(SIZE), "=r,r", [pid], dtype=gl.int32, is_pure=False, pack=1)
    gl.store(OUT + pid, pid)


def main():
    out = torch.zeros(1 << 12, dtype=torch.int32, device="cuda")
    clear = torch.empty(2 << 30, dtype=torch.uint8, device="cuda")
    sizes = (1, 2, 4, 8, 16)
    times = {s: [] for s in sizes}
    for s in sizes:
        probe[(128 // s,)](out, s, num_warps=1)
    torch.cuda.synchronize()
    for _ in range(300):
        for s in sizes:
            clear.fill_(1)
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            probe[(128 // s,)](out, s, num_warps=1)
            b.record()
            torch.cuda.synchronize()
            times[s].append(a.elapsed_time(b) * 1e3)
    res = {s: statistics.median(t) for s, t in times.items()}
    assert torch.equal(out[:128].cpu(), torch.arange(128, dtype=torch.int32)), "every program stored"
    for s, t in res.items():
        print(f"cluster {s:2d}: {t:.2f} us (median of 300)")
    json.dump(res, open(sys.argv[1], "w"), indent=1)


if __name__ == "__main__":
    main()
