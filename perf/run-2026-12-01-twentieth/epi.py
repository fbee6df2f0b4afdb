"""Experiment (2026-12-01, twentieth session): where a split shape's epilogue
goes, step by step.

    python3 perf/run-2026-12-01-twentieth/epi.py OUT_DIR specs/h200.yaml TAG [TAG ...]

The nineteenth session's rawtl.py (the spec's timeline build, every
program's stamps with its SM, RAW_RUNS calls as gen timeline makes them),
with more stamps in the one-warpgroup kernels' epilogue, in slots that
only the consumers-2 kernels use (so: one-warpgroup shapes only):
  12  the last tile's softmax done (P in shared memory), before its PV
  8   the output's scale known (the row sums reduced across the warps)
  9   past the CTA barrier before the arrival (the partial's stores issued)
  10  the merge's log-sum-exps loaded (a CTA-wide max of them)
  11  the merge's partials loaded (a CTA-wide max of them)
beside the build's own 3 (first scores), 4 (loop done), 5 (stores issued),
13 (the acq_rel arrival returned), 6 (barrier passed), 7 (merge stores
issued). The CTA-wide reductions behind 10 and 11 add their own latency to
what follows them (7). EPI_VARIANT=name: mkvar.py's edit of that name first (files
raw-<name>-<tag>.pt). Prints each slot's median over programs and calls,
us after the call's first entry.
"""
import os
import sys
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "run-2026-12-01-nineteenth"))
import rawtl  # noqa: E402

EDITS = [
    ("""            m_i, l_t, acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7 = _gl_softmax_step(
                sv, s, m_i, l_t, acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7, p_smem, flag_smem, i, V_PARTS,
                LAZY_RESCALE, MXFP4)
""", """            _gl_stamp(STAMPS, 12, gl.max(m_i, axis=0).to(gl.int32))
"""),
    ("""    scale = (1.0 if PART_F16 else kv_scale) / gl.where(seen, l_o, 1.0)
""", """    _gl_stamp(STAMPS, 8, gl.max(scale, axis=0).to(gl.int32))
"""),
    ("""    gl.thread_barrier()
    arrived = gl.atomic_add(counter, 1, sem="acq_rel", scope="gpu")
""", None),
    ("""    part = gl.load(PART_O + row * stride_po_t + offs_s[:, None, None] * stride_po_s + hd[None, :, :],
                   cache_modifier=".cg")
""", """    _gl_stamp(STAMPS, 10, gl.max(gl.max(lse, axis=1), axis=0).to(gl.int32))
    _gl_stamp(STAMPS, 11, gl.max(gl.max(gl.max(part.to(gl.float32), axis=2), axis=1), axis=0).to(gl.int32))
"""),
]
BARRIER = """    gl.thread_barrier()
    arrived = gl.atomic_add(counter, 1, sem="acq_rel", scope="gpu")
"""
BARRIER_STAMPED = """    gl.thread_barrier()
    _gl_stamp(STAMPS, 9, pid_s)
    arrived = gl.atomic_add(counter, 1, sem="acq_rel", scope="gpu")
"""


VOL_AFTER = """    lse = gl.load(PART_LSE + row * stride_pl_t + offs_s[:, None] * stride_pl_s + offs_sh[None, :],
                  volatile=True)
"""


def edit(text):
    variant = os.environ.get("EPI_VARIANT", "")
    edits = EDITS
    if variant:
        sys.path.insert(0, str(HERE))
        import mkvar

        text = getattr(mkvar, variant)(text)
    if variant == "vol":
        # the stamps after its loads (the log-sum-exps' now last)
        assert text.count(VOL_AFTER) == 1
        text = text.replace(VOL_AFTER, VOL_AFTER + EDITS[3][1])
        edits = EDITS[:3]
    for old, after in edits:
        assert text.count(old) == 1, old
        if after is None:
            text = text.replace(old, BARRIER_STAMPED)
        else:
            text = text.replace(old, old + after)
    return text


_source = rawtl.source


def source(spec_path, tags):
    plan, text = _source(spec_path, tags)
    return plan, edit(text)


rawtl.source = source

SLOTS = [(0, "entry"), (1, "indptrs in"), (2, "Q in shared memory"), (3, "first scores"),
         (12, "last tile's softmax done"), (4, "loop done"), (8, "output scale known"),
         (5, "partial stores issued"), (9, "past the CTA barrier"), (13, "arrival returned"),
         (6, "barrier passed"), (10, "log-sum-exps in"), (11, "partials in"), (7, "merge stores issued")]


def summary(path):
    d = torch.load(path)
    s = d["stamps"].double()
    t0 = s[:, :, 0].min(dim=1).values[:, None]
    print(path.name, "calls", s.shape[0], "programs", s.shape[1],
          "median event us %.2f" % sorted(d["event_us"])[len(d["event_us"]) // 2])
    for slot, name in SLOTS:
        v = s[:, :, slot]
        ok = v > 0
        if not ok.any():
            continue
        rel = ((v - t0) / 1000.0)[ok]
        q = torch.quantile(rel, torch.tensor([0.5, 0.9], dtype=rel.dtype))
        print(f"  {slot:2d} {name:28s} median {q[0]:6.2f}  p90 {q[1]:6.2f}  latest {rel.max():6.2f}")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--summary":
        for p in sys.argv[2:]:
            summary(Path(p))
        sys.exit(0)
    rawtl.main()
    out = Path(sys.argv[1])
    for tag in sys.argv[3:]:
        p = out / f"raw-{tag}.pt"
        if os.environ.get("EPI_VARIANT"):
            p = p.rename(out / f"raw-{os.environ['EPI_VARIANT']}-{tag}.pt")
        if p.exists():
            summary(p)
