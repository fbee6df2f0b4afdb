"""Variants of a build for the twenty-first session's one-process comparisons
(timing; text edits of the generated file, checked to apply exactly once).

    python3 perf/run-2026-12-01-twentyfirst/mkvar.py build/h200/submission.py OUT_DIR NAME [NAME ...]

All edit the build of 379261b (build/h200/submission.py at 0d67cc5).

nosum: a bound, outputs wrong on purpose. The tile loop's row sums are
never reduced: _gl_attend_tiles returns ones for them, so the per-tile row
sum updates are dead code and the epilogue's cross-warp reduction is gone.
What the row sums cost a call, at most: the loop-done -> scale step of the
twentieth session's stamps (0.30-0.34 us) plus the loop's updates.
sahead: with V from registers (v_buffers 0, no prefetch_v, two or more ring
stages), the next tile's score wgmmas are issued inside the PV product's
last group of 16 KV rows, before its wait, instead of after it: the tensor
core runs them behind the last PV wgmmas, and one wait covers both. After
the last tile they are issued on a stale slot and discarded (Triton's if
cannot return an in-flight wgmma), on the last tile's path.
lsum: the row sums reduced across the warpgroup (gl.sum over the tile's
rows) under each tile's first PV wgmmas (V from registers: the first group
of 16 KV rows; V through shared memory: part 0), so that after the loop the
epilogue's scale needs no reduction: the reduction's latency off the path
from the last wgmma to the partial's stores, at the price of one reduction
(shuffles, a shared-memory round trip and a CTA barrier) a tile.
lsum_last: lsum's reduction on each program's last tile only (a uniform
run-time branch under that tile's first PV wgmmas; claim_tiles' consumers,
which do not know their last tile in advance, reduce after the loop).
bstore: V through shared memory (v_buffers 1 or 2: b4 kv1024 here), each
output part moved to a blocked layout (8 consecutive dims of one head a
thread, through shared memory) before its stores: 16-byte stores where the
wgmma's layout gives each thread 2-byte values of dims 8 apart.
"""
import sys
from pathlib import Path

OUT_REGS_SIG = """                 TMA_TILE: gl.constexpr, EARLY_REFILL: gl.constexpr):
    \"\"\"acc_p += V_p^T P^T for the 8 output parts"""
OUT_REGS_SIG_NEW = """                 TMA_TILE: gl.constexpr, EARLY_REFILL: gl.constexpr,
                 q_smem, bars_all, i, n_tiles, s0, s1, s2, STAGES: gl.constexpr, SAHEAD: gl.constexpr):
    \"\"\"acc_p += V_p^T P^T for the 8 output parts"""

OUT_REGS_WAIT = """        acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7 = warpgroup_mma_wait(
            num_outstanding=0, deps=(acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7))
    return acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7
"""
OUT_REGS_WAIT_NEW = """        if SAHEAD and j == GL_BLOCK_N // 16 - 1:
            # (after the last tile they read a stale slot and are discarded)
            s0, s1, s2 = _gl_next_scores(kv_smem, q_smem, bars_all, i, n_tiles, s0, s1, s2, STAGES)
            acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7, s0, s1, s2 = warpgroup_mma_wait(
                num_outstanding=0, deps=(acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7, s0, s1, s2))
        else:
            acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7 = warpgroup_mma_wait(
                num_outstanding=0, deps=(acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7))
    return acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7, s0, s1, s2
"""

CLAIM_CALL = """            acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7 = _gl_out_regs(
                acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7, va0, va1, va2, va3, va4, va5, va6, va7,
                kv_smem, _gl_p_buffer(p_smem, i, LAZY_RESCALE), stage, V_AHEAD, kv_desc, kv_tile_desc,
                bars.index(stage), 0, False, TMA_TILE, False)
"""
CLAIM_CALL_NEW = """            acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7, s0, s1, s2 = _gl_out_regs(
                acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7, va0, va1, va2, va3, va4, va5, va6, va7,
                kv_smem, _gl_p_buffer(p_smem, i, LAZY_RESCALE), stage, V_AHEAD, kv_desc, kv_tile_desc,
                bars.index(stage), 0, False, TMA_TILE, False, q_smem, bars, i, n_tiles, s0, s1, s2, STAGES, False)
"""

LOOP_CALL = """                acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7 = _gl_out_regs(
                    acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7, va0, va1, va2, va3, va4, va5, va6, va7,
                    v_smem, p_cur, stage, V_AHEAD, kv_desc, kv_tile_desc, bars.index(stage),
                    row0 + _gl_tile_offset(i + STAGES, n_tiles, rot, STAGGER, STEP), i + STAGES < n_tiles, TMA_TILE,
                    EARLY_REFILL and not MXFP4)
"""
LOOP_CALL_NEW = """                acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7, s0, s1, s2 = _gl_out_regs(
                    acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7, va0, va1, va2, va3, va4, va5, va6, va7,
                    v_smem, p_cur, stage, V_AHEAD, kv_desc, kv_tile_desc, bars.index(stage),
                    row0 + _gl_tile_offset(i + STAGES, n_tiles, rot, STAGGER, STEP), i + STAGES < n_tiles, TMA_TILE,
                    EARLY_REFILL and not MXFP4, q_smem, bars, i, n_tiles, s0, s1, s2, STAGES,
                    STAGES > 1 and not MXFP4 and not PREFETCH_V)
"""

NEXT = """                if not OVERLAP:
                    if i + 1 < n_tiles:
"""
NEXT_NEW = """                if not OVERLAP and not (V_BUFS == 0 and STAGES > 1 and not PREFETCH_V):
                    if i + 1 < n_tiles:
"""

SUM = "    return m_i, gl.sum(l_t, axis=0), acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7\n"
SUM_NEW = ("    return m_i, gl.full([NUM_HEADS], 1.0, gl.float32, layout=gl.SliceLayout(0, s_layout)), "
           "acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7\n")


def lsum(text):
    text = once(text, OUT_REGS_SIG, OUT_REGS_SIG.replace(
        "EARLY_REFILL: gl.constexpr):", "EARLY_REFILL: gl.constexpr, l_t, l_sum):"))
    text = once(text, """        if EARLY_REFILL:
            if j == GL_BLOCK_N // 16 - 2:""", """        if j == 0:
            # (the row sums so far, reduced under the first group's wgmmas)
            l_sum = gl.sum(l_t, axis=0)
        if EARLY_REFILL:
            if j == GL_BLOCK_N // 16 - 2:""")
    text = once(text, OUT_REGS_WAIT, OUT_REGS_WAIT.replace(
        "    return acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7\n",
        "    return acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7, l_sum\n"))
    text = once(text, CLAIM_CALL, CLAIM_CALL.replace(
        "acc6, acc7 = _gl_out_regs(", "acc6, acc7, l_sum = _gl_out_regs(").replace(
        "TMA_TILE, False)", "TMA_TILE, False, l_t, l_sum)"))
    text = once(text, LOOP_CALL, LOOP_CALL.replace(
        "acc6, acc7 = _gl_out_regs(", "acc6, acc7, l_sum = _gl_out_regs(").replace(
        "EARLY_REFILL and not MXFP4)", "EARLY_REFILL and not MXFP4, l_t, l_sum)"))
    text = once(text, """                 STAGES: gl.constexpr, OVERLAP: gl.constexpr, layout: gl.constexpr, c0, WIDTH_PARTS: gl.constexpr):""",
                """                 STAGES: gl.constexpr, OVERLAP: gl.constexpr, layout: gl.constexpr, c0, WIDTH_PARTS: gl.constexpr,
                 l_t, l_sum):""")
    text = once(text, """    acc = warpgroup_mma(v16_smem.index(K % V_BUFS).permute((1, 0)), p_smem, acc, is_async=True)
""", """    acc = warpgroup_mma(v16_smem.index(K % V_BUFS).permute((1, 0)), p_smem, acc, is_async=True)
    if K == 0:
        l_sum = gl.sum(l_t, axis=0)
""")
    text = once(text, """        _gl_smem_ready()
    return acc, s0, s1, s2
""", """        _gl_smem_ready()
    return acc, s0, s1, s2, l_sum
""")
    n = text.count(", s0, s1, s2 = _gl_out_part(")
    assert n == 8, n
    text = text.replace(", s0, s1, s2 = _gl_out_part(", ", s0, s1, s2, l_sum = _gl_out_part(")
    assert text.count("cvt_layout, c0, WIDTH_PARTS)") == 7
    text = text.replace("cvt_layout, c0, WIDTH_PARTS)", "cvt_layout, c0, WIDTH_PARTS, l_t, l_sum)")
    text = once(text, """OVERLAP, cvt_layout, c0,
                                                WIDTH_PARTS)""", """OVERLAP, cvt_layout, c0,
                                                WIDTH_PARTS, l_t, l_sum)""")
    text = once(text, """    l_t = gl.zeros([GL_BLOCK_N, NUM_HEADS], gl.float32, layout=s_layout)
""", """    l_t = gl.zeros([GL_BLOCK_N, NUM_HEADS], gl.float32, layout=s_layout)
    l_sum = gl.zeros([NUM_HEADS], gl.float32, layout=gl.SliceLayout(0, s_layout))
""")
    return once(text, SUM, SUM.replace("gl.sum(l_t, axis=0)", "l_sum"))


def lsum_last(text):
    text = lsum(text)
    text = once(text, "EARLY_REFILL: gl.constexpr, l_t, l_sum):", "EARLY_REFILL: gl.constexpr, l_t, l_sum, last):")
    text = once(text, """        if j == 0:
            # (the row sums so far, reduced under the first group's wgmmas)
            l_sum = gl.sum(l_t, axis=0)
""", """        if j == 0:
            if last:
                # (the row sums, reduced under the last tile's first group of wgmmas)
                l_sum = gl.sum(l_t, axis=0)
""")
    text = once(text, "TMA_TILE, False, l_t, l_sum)", "TMA_TILE, False, l_t, l_sum, False)")
    text = once(text, "EARLY_REFILL and not MXFP4, l_t, l_sum)", "EARLY_REFILL and not MXFP4, l_t, l_sum, i + 1 == n_tiles)")
    text = once(text, """WIDTH_PARTS: gl.constexpr,
                 l_t, l_sum):""", """WIDTH_PARTS: gl.constexpr,
                 l_t, l_sum, last):""")
    text = once(text, """    if K == 0:
        l_sum = gl.sum(l_t, axis=0)
""", """    if K == 0:
        if last:
            l_sum = gl.sum(l_t, axis=0)
""")
    assert text.count("WIDTH_PARTS, l_t, l_sum)") == 8
    text = text.replace("WIDTH_PARTS, l_t, l_sum)", "WIDTH_PARTS, l_t, l_sum, i + 1 == n_tiles)")
    return once(text, "    return m_i, l_sum, acc0", """    if CLAIM:
        l_sum = gl.sum(l_t, axis=0)
    return m_i, l_sum, acc0""")


STORE_OUT = """    out = acc * scale[None, :]
    offs_d = d0 + P * acc.shape[0] + gl.arange(0, acc.shape[0], layout=gl.SliceLayout(1, layout))
    offs_h = gl.arange(0, acc.shape[1], layout=gl.SliceLayout(0, layout))
"""
STORE_OUT_NEW = """    out = acc * scale[None, :]
    st_layout: gl.constexpr = gl.BlockedLayout([8, 1], [32, 1], [1, gl.num_warps()], [0, 1])
    if WRITE_PARTIAL:
        out = gl.convert_layout(out.to(PART_O.dtype.element_ty), st_layout)
    else:
        out = gl.convert_layout(out.to(gl.bfloat16), st_layout)
    offs_d = d0 + P * acc.shape[0] + gl.arange(0, acc.shape[0], layout=gl.SliceLayout(1, st_layout))
    offs_h = gl.arange(0, acc.shape[1], layout=gl.SliceLayout(0, st_layout))
"""


def bstore(text):
    return once(text, STORE_OUT, STORE_OUT_NEW)


def once(text, old, new):
    assert text.count(old) == 1, old
    return text.replace(old, new)


def nosum(text):
    return once(text, SUM, SUM_NEW)


def sahead(text):
    for old, new in ((OUT_REGS_SIG, OUT_REGS_SIG_NEW), (OUT_REGS_WAIT, OUT_REGS_WAIT_NEW),
                     (CLAIM_CALL, CLAIM_CALL_NEW), (LOOP_CALL, LOOP_CALL_NEW), (NEXT, NEXT_NEW)):
        text = once(text, old, new)
    return text


if __name__ == "__main__":
    src, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    text = src.read_text()
    for name in sys.argv[3:]:
        (out / f"{name}.py").write_text(globals()[name](text))
