"""Variants of a build for the twentieth session's one-process comparisons
(timing; text edits of the generated file, checked to apply exactly once).

    python3 perf/run-2026-12-01-twentieth/mkvar.py build/h200/submission.py OUT_DIR NAME [NAME ...]

vol, lsec, cpad and lsec_cpad edit the build of 78455bf (before compact_lse),
hshare the build of 2dfa152.

vol: the barrier merge's loads volatile (ld.volatile: strong, system scope)
instead of .cg, the partials' before the log-sum-exps'. Run 1's stamps put
b4 kv8192's merge at two L2 round trips (log-sum-exps in 1.2-1.3 us after
the barrier, the partials 0.65-0.77 us later); its SASS says why: ptxas
issued the 32 log-sum-exp loads, then the max over them, and the 32 partial
loads only among the exponentials (in floor.py's skeleton, with 80
registers, 58 of the 64 loads go first). Strong system-scope loads keep
their program order in ptxas's schedule: all 64 are issued before the max.
lsec: the barrier merge's log-sum-exps loaded once in a compact layout (16
bytes a thread: one request a warp per 4 lines), then moved to the merge's
layout through shared memory (convert_layout). Run 1's stamps put the b4
shapes' first merge load at 1.0-1.3 us after the barrier for every program,
against 0.26-0.5 on b32 kv1024 and b64 kv1024: on the b4 shapes all 32
programs of a row (every program of the grid) pass their barriers at once
and each loads every split's log-sum-exps in the merge layout, 4 heads of one
split a warp request: 256 requests for each of the row's 16 lines.
cpad: each row's counters on a 128-byte line of their own (16 int64 apart):
the b4 shapes' four rows share one line, so all 128 programs' arrivals and
polls meet at one L2 slice.
hshare: each program of the barrier merge takes one contiguous 1 / SHARES of
its row's (heads x 512) output, not 512 / SHARES dims of every head: with 32
shares half a head (its 256 dims of every split: 512 contiguous bytes each),
with 4 shares 4 whole heads. A split's share is then whole lines, loaded a
line a warp request (16-byte vectors where the share is wide enough), and a
program needs the log-sum-exps of its own heads only (no row-wide block read
by every program: compact_lse has nothing left to do).
"""
import re
import sys
from pathlib import Path

OLD = """    lse = gl.load(PART_LSE + row * stride_pl_t + offs_s[:, None] * stride_pl_s + offs_sh[None, :],
                  cache_modifier=".cg")
    offs_h = gl.arange(0, NUM_HEADS, layout=gl.SliceLayout(1, hd_layout))
    offs_d = pid_s * DIMS + gl.arange(0, DIMS, layout=gl.SliceLayout(0, hd_layout))
    hd = offs_h[:, None] * stride_po_h + offs_d[None, :]
    part = gl.load(PART_O + row * stride_po_t + offs_s[:, None, None] * stride_po_s + hd[None, :, :],
                   cache_modifier=".cg")
"""
NEW = """    offs_h = gl.arange(0, NUM_HEADS, layout=gl.SliceLayout(1, hd_layout))
    offs_d = pid_s * DIMS + gl.arange(0, DIMS, layout=gl.SliceLayout(0, hd_layout))
    hd = offs_h[:, None] * stride_po_h + offs_d[None, :]
    part = gl.load(PART_O + row * stride_po_t + offs_s[:, None, None] * stride_po_s + hd[None, :, :],
                   volatile=True)
    lse = gl.load(PART_LSE + row * stride_pl_t + offs_s[:, None] * stride_pl_s + offs_sh[None, :],
                  volatile=True)
"""


LSE = """    lse = gl.load(PART_LSE + row * stride_pl_t + offs_s[:, None] * stride_pl_s + offs_sh[None, :],
                  cache_modifier=".cg")
"""
LSE_COMPACT = """    lc_layout: gl.constexpr = gl.BlockedLayout([1, 4], [32 // (NUM_HEADS // 4), NUM_HEADS // 4],
                                               [gl.num_warps(), 1], [1, 0])
    offs_sc = gl.arange(0, NUM_SPLITS, layout=gl.SliceLayout(1, lc_layout))
    offs_hc = gl.arange(0, NUM_HEADS, layout=gl.SliceLayout(0, lc_layout))
    lse = gl.load(PART_LSE + row * stride_pl_t + offs_sc[:, None] * stride_pl_s + offs_hc[None, :],
                  cache_modifier=".cg")
"""
LSE_USE = """    # (a head no split saw has every lse -inf: weights 0, output 0)
    m = gl.max(lse, axis=0)
"""


def lsec(text):
    text = once(text, LSE, LSE_COMPACT)
    return once(text, LSE_USE, "    lse = gl.convert_layout(lse, sh_layout)\n" + LSE_USE)


def cpad(text):
    text = once(text, "COUNTERS + pid_b, row, pid_m", "COUNTERS + pid_b * 16, row, pid_m")
    n = text.count("COUNTERS + gl.num_programs(0) + pid_b")
    assert n == 3, n
    text = text.replace("COUNTERS + gl.num_programs(0) + pid_b", "COUNTERS + (gl.num_programs(0) + pid_b) * 16")
    text, k = re.subn(r"counters = torch\.zeros\(\((\d+),\), dtype=torch\.int64",
                      lambda m: f"counters = torch.zeros(({int(m.group(1)) * 16},), dtype=torch.int64", text)
    assert k == 6, k
    return text


def lsec_cpad(text):
    return cpad(lsec(text))


HSHARE_OLD_START = "    DIMS: gl.constexpr = GL_KV_LORA // SHARES\n"
HSHARE_OLD_END = "    gl.store(OUT + row * stride_o_t + offs_h[:, None] * stride_o_h + offs_d[None, :], out.to(gl.bfloat16))\n"
HSHARE_NEW = """    if SHARES <= NUM_HEADS:
        HP: gl.constexpr = NUM_HEADS // SHARES
        DP: gl.constexpr = GL_KV_LORA
        h0 = pid_s * HP
        d0 = 0
    else:
        HP: gl.constexpr = 1
        DP: gl.constexpr = GL_KV_LORA * NUM_HEADS // SHARES
        h0 = pid_s // (SHARES // NUM_HEADS)
        d0 = (pid_s % (SHARES // NUM_HEADS)) * DP
    layout: gl.constexpr = _gl_share_layout(gl.num_warps(), NUM_SPLITS, HP, DP, 2 if PART_F16 else 4)
    sh_layout: gl.constexpr = gl.SliceLayout(2, layout)
    hd_layout: gl.constexpr = gl.SliceLayout(0, layout)
    offs_s = gl.arange(0, NUM_SPLITS, layout=gl.SliceLayout(1, sh_layout))
    offs_sh = h0 + gl.arange(0, HP, layout=gl.SliceLayout(0, sh_layout))
    lse = gl.load(PART_LSE + row * stride_pl_t + offs_s[:, None] * stride_pl_s + offs_sh[None, :],
                  cache_modifier=".cg")
    offs_h = h0 + gl.arange(0, HP, layout=gl.SliceLayout(1, hd_layout))
    offs_d = d0 + gl.arange(0, DP, layout=gl.SliceLayout(0, hd_layout))
    hd = offs_h[:, None] * stride_po_h + offs_d[None, :]
    part = gl.load(PART_O + row * stride_po_t + offs_s[:, None, None] * stride_po_s + hd[None, :, :],
                   cache_modifier=".cg")
    # (a head no split saw has every lse -inf: weights 0, output 0)
    m = gl.max(lse, axis=0)
    w = gl.exp2(lse - gl.where(m == float("-inf"), 0.0, m)[None, :])
    w_sum = gl.sum(w, axis=0)
    w = w / gl.where(w_sum > 0, w_sum, 1.0)[None, :]
    out = gl.sum(part.to(gl.float32) * w[:, :, None], axis=0)
    if PART_F16:
        out = out * kv_scale
    gl.store(OUT + row * stride_o_t + offs_h[:, None] * stride_o_h + offs_d[None, :], out.to(gl.bfloat16))
"""
SHARE_LAYOUT = """

@gluon.constexpr_function
def _gl_share_layout(num_warps, splits, heads, dims, elem_bytes):
    # (splits, heads, dims) of a contiguous share: every split in a thread's
    # registers, 16-byte vectors along the dims where the share allows, the
    # lanes along the dims, then the warps along the dims and the heads.
    vec = max(1, min(16 // elem_bytes, heads * dims // (32 * num_warps)))
    lanes_d = min(32, dims // vec)
    lanes_h = 32 // lanes_d
    warps_d = max(1, min(num_warps, dims // (vec * lanes_d)))
    return gl.BlockedLayout([splits, 1, vec], [1, lanes_h, lanes_d], [1, num_warps // warps_d, warps_d],
                            [2, 1, 0])
"""


def hshare(text):
    a = text.index(HSHARE_OLD_START)
    b = text.index(HSHARE_OLD_END, a) + len(HSHARE_OLD_END)
    assert text.count(HSHARE_OLD_START) == 1
    text = text[:a] + HSHARE_NEW + text[b:]
    anchor = "\n\n@gluon.jit\ndef _gl_barrier_merge("
    return once(text, anchor, SHARE_LAYOUT + anchor)


def once(text, old, new):
    assert text.count(old) == 1, old
    return text.replace(old, new)


def vol(text):
    return once(text, OLD, NEW)


if __name__ == "__main__":
    src, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    text = src.read_text()
    for name in sys.argv[3:]:
        (out / f"{name}.py").write_text(globals()[name](text))
