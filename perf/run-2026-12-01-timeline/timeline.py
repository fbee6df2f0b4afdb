"""Experiment (2026-12-01, ninth session): where a call's time goes, program by program.

    python3 perf/run-2026-12-01-timeline/timeline.py OUT.json committed.py stamped.py [stamped2.py ...]

stamped.py is a build of specs/h200.yaml from the template with stamps.patch
applied (run 1), or a file of make_variants.sh with GL_STAMPS_ON (runs 2-4,
variants.patch): every attention program writes %globaltimer (ns) at
fixed points of its life into a (programs, 16) int64 buffer, slot

    0 entry   1 indptrs in   2 Q in shared memory   3 first tile's scores
    4 tile loop done   5 output / partial stores issued
    6 merge barrier passed   7 merge stores issued   15 the program's tiles
    8, 9 the second warpgroup's 3 and 4 (consumers 2)
    10 the second warpgroup's results in shared memory (run 5 on)
    11 the first warpgroup past warp_specialize   12 the fold done
    13 the merge barrier's arrival returned

Each shape is called as gen bench calls it (L2 dirty from a 2 GiB clear, events
around the call), the stamped and the committed build interleaved, so the
stamps' own cost shows. Per call: the event time, and from the stamps the
span (first entry to last stamp), the spread of entries, and per phase the
median and max over programs. A tiny Triton kernel (one store a program, 128
programs) is timed the same way: the launch floor beside the span.
"""

import json
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
RUNS = 40
PHASES = [("entry->indptr", 0, 1), ("indptr->Q", 1, 2), ("Q->tile0", 2, 3), ("tile0->loop end", 3, 4),
          ("loop end->stores", 4, 5), ("stores->barrier", 5, 6), ("barrier->merged", 6, 7)]


@triton.jit
def _tiny(X, STAMP: tl.constexpr):
    pid = tl.program_id(0)
    t = tl.inline_asm_elementwise("mov.u64 $0, %globaltimer;", "=l,r", [pid], dtype=tl.int64, is_pure=False, pack=1)
    if STAMP:
        tl.store(X + pid, t)
    else:
        tl.store(X + pid, pid)


def summarize(stamps, elapsed):
    """Phase figures (us) of one call's stamps (programs x 16, ns)."""
    n = stamps[:, 15]
    used = stamps[:, 0] > 0
    s = stamps[used].double()
    t0 = s[:, 0].min()
    last = s[:, :8].max()
    row = {"event_us": elapsed, "span_us": float(last - t0) / 1e3,
           "entry_spread_us": float(s[:, 0].max() - t0) / 1e3,
           "programs": int(used.sum()), "tiles": int(n[used].max())}
    for name, a, b in PHASES:
        ok = (s[:, a] > 0) & (s[:, b] > 0)
        if ok.any():
            d = (s[ok, b] - s[ok, a]) / 1e3
            row[name] = {"median": float(d.median()), "max": float(d.max())}
    for slot in range(14):
        ok = s[:, slot] > 0
        if ok.any():
            row[f"at{slot}"] = {"median": float((s[ok, slot] - t0).median()) / 1e3,
                                "max": float((s[ok, slot] - t0).max()) / 1e3}
    return row


def med(rows, key, sub=None):
    vals = [r[key][sub] if sub else r[key] for r in rows if key in r]
    return statistics.median(vals) if vals else None


def main() -> None:
    out_path, committed_file, stamped_files = Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
    committed = import_submission(Path(committed_file).read_text())
    variants = {Path(f).stem: import_submission(Path(f).read_text()) for f in stamped_files}
    scratch = torch.empty(2 << 30, dtype=torch.uint8, device="cuda")
    flush = torch.empty(256 << 20, dtype=torch.float32, device="cuda")
    results = {"device": torch.cuda.get_device_name(), "runs": RUNS, "shapes": {}}

    x = torch.zeros(128, dtype=torch.int64, device="cuda")
    for stamp in (False, True):
        _tiny[(128,)](x, STAMP=stamp)
    tiny = {"plain": [], "stamped": [], "span": []}
    for _ in range(RUNS):
        tiny["plain"].append(call_us(lambda: _tiny[(128,)](x, STAMP=False), scratch, flush, "dirty"))
        x.zero_()
        tiny["stamped"].append(call_us(lambda: _tiny[(128,)](x, STAMP=True), scratch, flush, "dirty"))
        tiny["span"].append(float(x.max() - x.min()) / 1e3)
    results["tiny"] = {k: statistics.median(v) for k, v in tiny.items()}
    print("tiny", results["tiny"], flush=True)

    for i, (batch, kv_len) in enumerate(SHAPES):
        case = uniform_case(f"b{batch}_kv{kv_len}", batch, kv_len)
        data = make_inputs(case, 100 + i, "cuda", "e4m3fn")
        for m in (committed, *variants.values()):
            for _ in range(3):
                m.custom_kernel(data)
        rows, plain = {n: [] for n in variants}, []
        for _ in range(RUNS):
            plain.append(call_us(lambda: committed.custom_kernel(data), scratch, flush, "dirty"))
            for n, m in variants.items():
                buf = m._gl_stamps(data[0].device)
                buf.zero_()
                e = call_us(lambda: m.custom_kernel(data), scratch, flush, "dirty")
                rows[n].append(summarize(buf.cpu(), e))
        shape = {"committed_us": statistics.median(plain)}
        for n, r in rows.items():
            res = {"event_us": med(r, "event_us"), "span_us": med(r, "span_us"),
                   "entry_spread_us": med(r, "entry_spread_us"), "programs": r[0]["programs"],
                   "tiles": r[0]["tiles"]}
            for name, _, _ in PHASES:
                if med(r, name, "median") is not None:
                    res[name] = {"median": med(r, name, "median"), "max": med(r, name, "max")}
            for slot in range(14):
                if med(r, f"at{slot}", "median") is not None:
                    res[f"at{slot}"] = {"median": med(r, f"at{slot}", "median"), "max": med(r, f"at{slot}", "max")}
            shape[n] = res
        results["shapes"][case.name] = shape
        print(case.name, json.dumps(shape), flush=True)
        del data
    out_path.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
