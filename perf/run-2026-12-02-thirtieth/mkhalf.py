"""b4 kv1024's two dims halves merged behind barriers of their own (thirtieth session).

python mkhalf.py BUILD OUTDIR writes halfbar.py: BUILD where, with dv_split 2,
each (row, dims half) has its own counter and its NUM_SPLITS programs merge
dims of their own half only (program (split s, half h): dims 256 h + 16 s ..
+ 16), waiting for their half's 16 arrivals instead of the row's 32: every
partial and log-sum-exp they read is written by a program of their half
(both halves of a split store the same log-sum-exps). The b4 kv1024 runner's
counters grow to batch x 2. dv_split 1 kernels compile as before (half 0,
the row's counter). Checked to apply once.
"""
import sys
from pathlib import Path

EDITS = [
    ("""        _gl_barrier_merge(PART_O, PART_LSE, OUT, COUNTERS + pid_b, row, pid_m, stride_po_s, stride_po_t,
                          stride_po_h, stride_pl_s, stride_pl_t, stride_o_t, stride_o_h, kv_scale, NUM_HEADS,
                          NUM_SPLITS, PART_F16, NUM_SPLITS * DV_SPLIT, COMPACT_LSE, POLL_LOAD)
""", """        _gl_barrier_merge(PART_O, PART_LSE, OUT, COUNTERS + pid_b * DV_SPLIT + v_half, row, pid_s, stride_po_s,
                          stride_po_t, stride_po_h, stride_pl_s, stride_pl_t, stride_o_t, stride_o_h, kv_scale,
                          NUM_HEADS, NUM_SPLITS, PART_F16, NUM_SPLITS * DV_SPLIT, COMPACT_LSE, POLL_LOAD,
                          v_half * (GL_KV_LORA // DV_SPLIT), NUM_SPLITS)
"""),
    ("""                      COMPACT_LSE: gl.constexpr, POLL_LOAD: gl.constexpr):
    \"\"\"merge 'barrier': arrive""", """                      COMPACT_LSE: gl.constexpr, POLL_LOAD: gl.constexpr, d_base, ARRIVALS: gl.constexpr):
    \"\"\"merge 'barrier': arrive"""),
    ("""    target = (arrived // SHARES + 1) * SHARES
""", """    target = (arrived // ARRIVALS + 1) * ARRIVALS
"""),
    ("""    offs_d = pid_s * DIMS + gl.arange(0, DIMS, layout=gl.SliceLayout(0, hd_layout))
""", """    offs_d = d_base + pid_s * DIMS + gl.arange(0, DIMS, layout=gl.SliceLayout(0, hd_layout))
"""),
    ("""    part_lse = torch.empty((16, 4, 16), dtype=torch.float32, device=device)
    out = torch.empty((4, 16, 512), dtype=torch.bfloat16, device=device)
    counters = torch.zeros((4,), dtype=torch.int64, device=device)
""", """    part_lse = torch.empty((16, 4, 16), dtype=torch.float32, device=device)
    out = torch.empty((4, 16, 512), dtype=torch.bfloat16, device=device)
    counters = torch.zeros((8,), dtype=torch.int64, device=device)
"""),
]

src = Path(sys.argv[1]).read_text()
for old, new in EDITS:
    assert src.count(old) == 1, (old[:70], src.count(old))
    src = src.replace(old, new)
(Path(sys.argv[2]) / "halfbar.py").write_text(src)
