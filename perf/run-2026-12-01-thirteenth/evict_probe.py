"""Probe (thirteenth session): does an evict-first L2 policy on a kernel's
reads keep the clear's modified lines in L2, and so save their write-back?

Times a plain Triton read kernel (16-byte loads, a grid of 4 programs an SM,
each striding over the buffer) under gen bench's 2 GiB clear (L2 dirty) and
clean (the same clear, then an untimed 1 GiB read), with the loads' eviction
policy "" (normal), "evict_first" and "evict_last" (Triton lowers the two
to ld.global.L2::cache_hint with createpolicy.fractional), interleaved call
by call in a shuffled order, medians of RUNS calls.

    python3 evict_probe.py OUT.json
"""
import json, os, random, statistics, sys
import torch, triton, triton.language as tl

@triton.jit
def read_kernel(X, Y, n_blocks, BLOCK: tl.constexpr, EVICT: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.int32)
    for b in range(pid, n_blocks, tl.num_programs(0)):
        offs = b.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
        acc ^= tl.load(X + offs, eviction_policy=EVICT)
    tl.store(Y + pid * BLOCK + tl.arange(0, BLOCK), acc)

RUNS = int(os.environ.get("RUNS", "100"))
BLOCK = 4096

def call_us(fn, scratch, flush, state):
    torch.cuda.synchronize()
    scratch.zero_()
    if state == "clean":
        flush.sum()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record(); fn(); e.record(); torch.cuda.synchronize()
    return s.elapsed_time(e) * 1000.0

def main():
    out = sys.argv[1]
    scratch = torch.empty(2 << 30, dtype=torch.uint8, device="cuda")
    flush = torch.empty(256 << 20, dtype=torch.float32, device="cuda")
    grid = 4 * torch.cuda.get_device_properties(0).multi_processor_count
    y = torch.empty(grid * BLOCK, dtype=torch.int32, device="cuda")
    rng = random.Random(0)
    res = {"device": torch.cuda.get_device_name(), "runs": RUNS, "sizes": {}}
    for mb in (19, 38, 151, 302, 1208):
        n = (mb * 10**6) // (4 * BLOCK) * BLOCK
        x = torch.randint(0, 1 << 30, (n,), dtype=torch.int32, device="cuda")
        variants = {ev or "normal": (lambda ev=ev: read_kernel[(grid,)](x, y, n // BLOCK, BLOCK=BLOCK, EVICT=ev, num_warps=8))
                    for ev in ("", "evict_first", "evict_last")}
        for f in variants.values():
            f(); f()
        keys = [(k, s) for k in variants for s in ("dirty", "clean")]
        times = {k: [] for k in keys}
        for _ in range(RUNS):
            rng.shuffle(keys)
            for k, s in keys:
                times[(k, s)].append(call_us(variants[k], scratch, flush, s))
        row = {f"{k}.{s}": statistics.median(v) for (k, s), v in sorted(times.items())}
        res["sizes"][f"{mb}MB"] = row
        print(f"{mb:5d} MB  " + "  ".join(f"{k} {v:8.2f}" for k, v in row.items()), flush=True)
        del x
    with open(out, "w") as f:
        json.dump(res, f, indent=1)

if __name__ == "__main__":
    main()
