"""Variants of a build for the twenty-second session's one-process comparisons
(timing; text edits of the generated file, each checked to apply exactly once).

    python3 perf/run-2026-12-01-twentysecond/mkvar.py build/h200/submission.py OUT_DIR NAME [NAME ...]

lsum_end, qkint and rowpairs edit the build of 6a557ea (build/h200/submission.py
at a26bb9a); qk256 the build of 00cb60a (v_row_pairs in the template).

lsum_end: the twenty-first session's lsum_last (the row sums reduced across
the warpgroup on each program's last tile, so that the epilogue's scale
needs no reduction after the loop), with the reduction moved from under the
last tile's first PV wgmmas to under its last ones: V from registers, after
the last group of 16 KV rows is issued (no conversion follows it to delay);
V through shared memory, under the last output part's wgmma.
qkint: the tile's 18 score wgmmas (three chains of six, each chain's
accumulation order unchanged) issued interleaved, chunk by chunk across the
chains (0, 3, 6, 1, 4, 7, 2, 5, 8), instead of chain after chain: no wgmma
then follows the one whose accumulator it adds to.
rowpairs: the eleventh session's rowpairs.patch (perf/run-2026-12-01-bound/)
on the current template: V's fp8 bytes paired by rows (two byte permutes a
8 elements) before cvt.rn.f16x2.e4m3x2, so that each converted register is
already the (row 2t, row 2t + 1) pair of one dim the wgmma operand takes,
instead of converting first and pairing each register after (one permute
a register). Timed then only on the shapes with two warps a scheduler.
qk256: the score chains as 256 + 256 + 64 dims (the latent halves and the
rope chunk) instead of 3 x 192, each one wgmma call (four 64-dim chunks,
consecutive in shared memory, seen as one (64, 256) operand, Q's as one
(16, 256)) instead of three calls of 64: fewer calls, the descriptors
stepped by the compiler; longer fp8 chains (rounding differs).
pvpipe: V from registers, the PV product's groups of 16 KV rows pipelined:
after issuing group j's 8 wgmmas, wait only for group j - 1 (8 left in
flight), then convert group j + 1 and issue it at once, so that the tensor
core has the next group queued behind the running one (the build waits for
group j before issuing j + 1); one full wait after the last group. Still two
sets of operand registers live at a time.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "run-2026-12-01-twentyfirst"))
import mkvar as prev  # noqa: E402


def lsum_end(text):
    text = prev.lsum_last(text)
    text = prev.once(text, """        if j == 0:
            if last:
                # (the row sums, reduced under the last tile's first group of wgmmas)""",
                     """        if j == GL_BLOCK_N // 16 - 1:
            if last:
                # (the row sums, reduced under the last tile's last group of wgmmas)""")
    return prev.once(text, """    if K == 0:
        if last:
            l_sum = gl.sum(l_t, axis=0)
""", """    if K == V_PARTS - 1:
        if last:
            l_sum = gl.sum(l_t, axis=0)
""")


SCORES = """        s0 = _gl_score_chain(kv_smem, q_smem, stage, s0, 0, GL_NCHUNK // 3)
        s1 = _gl_score_chain(kv_smem, q_smem, stage, s1, GL_NCHUNK // 3, GL_NCHUNK // 3)
        s2 = _gl_score_chain(kv_smem, q_smem, stage, s2, 2 * (GL_NCHUNK // 3), GL_NCHUNK // 3)
"""
SCORES_INT = """        L: gl.constexpr = GL_NCHUNK // 3
        s0 = warpgroup_mma(kv_smem.index(stage * GL_NCHUNK), q_smem.index(0).permute((1, 0)), s0,
                           use_acc=False, is_async=True)
        s1 = warpgroup_mma(kv_smem.index(stage * GL_NCHUNK + L), q_smem.index(L).permute((1, 0)), s1,
                           use_acc=False, is_async=True)
        s2 = warpgroup_mma(kv_smem.index(stage * GL_NCHUNK + 2 * L), q_smem.index(2 * L).permute((1, 0)), s2,
                           use_acc=False, is_async=True)
        for c in gl.static_range(1, L):
            s0 = warpgroup_mma(kv_smem.index(stage * GL_NCHUNK + c), q_smem.index(c).permute((1, 0)), s0,
                               is_async=True)
            s1 = warpgroup_mma(kv_smem.index(stage * GL_NCHUNK + L + c), q_smem.index(L + c).permute((1, 0)), s1,
                               is_async=True)
            s2 = warpgroup_mma(kv_smem.index(stage * GL_NCHUNK + 2 * L + c),
                               q_smem.index(2 * L + c).permute((1, 0)), s2, is_async=True)
"""


def qkint(text):
    return prev.once(text, SCORES, SCORES_INT)


ROWS_TO_F16 = '''@gluon.jit
def _gl_fp8_rows_to_f16(x):
    """x (16 rows, 512 dims, fp8; a thread's 16 dims of a row consecutive, rows
    2t and 2t + 1 in one thread) in fp16, each register the pair (row 2t, row
    2t + 1) of one dim: two byte permutes and four conversions a 8 elements."""
    x = gl.permute(gl.reshape(x, [8, 2, 512]), [0, 2, 1])
    a, b = gl.split(x)
    lo, hi = gl.inline_asm_elementwise(
        """
        {
        .reg .b32 t0, t1;
        .reg .b16 l0, h0, l1, h1;
        prmt.b32 t0, $4, $5, 0x5140;
        prmt.b32 t1, $4, $5, 0x7362;
        mov.b32 {l0, h0}, t0;
        mov.b32 {l1, h1}, t1;
        cvt.rn.f16x2.e4m3x2 $0, l0;
        cvt.rn.f16x2.e4m3x2 $1, h0;
        cvt.rn.f16x2.e4m3x2 $2, l1;
        cvt.rn.f16x2.e4m3x2 $3, h1;
        }
        """,
        "=r,=r,=r,=r,r,r", [a, b], dtype=(gl.float16, gl.float16), is_pure=True, pack=4)
    lo = gl.reshape(lo, [8, 128, 2, 2])
    hi = gl.reshape(hi, [8, 128, 2, 2])
    y = gl.join(lo, hi)
    y = gl.permute(y, [0, 3, 1, 4, 2])
    return gl.reshape(y, [16, 512])


@gluon.jit
def _gl_vt_operands(v_rows, a_layout: gl.constexpr):'''


def rowpairs(text):
    text = prev.once(text, """@gluon.jit
def _gl_vt_operands(v_rows, a_layout: gl.constexpr):""", ROWS_TO_F16)
    return prev.once(text, "    x = v_rows.to(gl.float16)\n", "    x = _gl_fp8_rows_to_f16(v_rows)\n")


CHAIN = """    s = warpgroup_mma(kv_smem.index(stage * GL_NCHUNK + FIRST), q_smem.index(FIRST).permute((1, 0)),
                      s_old, use_acc=False, is_async=True)
    for c in gl.static_range(FIRST + 1, FIRST + COUNT):
        s = warpgroup_mma(kv_smem.index(stage * GL_NCHUNK + c), q_smem.index(c).permute((1, 0)), s,
                          is_async=True)
    return s
"""
CHAIN_WIDE = """    kv = kv_smem.index(stage * GL_NCHUNK + FIRST)._reinterpret(
        kv_smem.dtype, [GL_BLOCK_N, COUNT * GL_DCHUNK], kv_smem.layout)
    q = q_smem.index(FIRST)._reinterpret(q_smem.dtype, [q_smem.shape[1], COUNT * GL_DCHUNK], q_smem.layout)
    return warpgroup_mma(kv, q.permute((1, 0)), s_old, use_acc=False, is_async=True)
"""
CHAINS_256 = """        s0 = _gl_score_chain(kv_smem, q_smem, stage, s0, 0, GL_VCHUNK // 2)
        s1 = _gl_score_chain(kv_smem, q_smem, stage, s1, GL_VCHUNK // 2, GL_VCHUNK // 2)
        s2 = _gl_score_chain(kv_smem, q_smem, stage, s2, GL_VCHUNK, 1)
"""


def qk256(text):
    return prev.once(prev.once(text, CHAIN, CHAIN_WIDE), SCORES, CHAINS_256)


PV_GROUP = """        acc7 = warpgroup_mma(a7, p_j, acc7, is_async=True)
        if V_AHEAD:
            if j + 1 < GL_BLOCK_N // 16:"""
PV_GROUP_PIPE = """        acc7 = warpgroup_mma(a7, p_j, acc7, is_async=True)
        acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7 = warpgroup_mma_wait(
            num_outstanding=8, deps=(acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7))
        if V_AHEAD:
            if j + 1 < GL_BLOCK_N // 16:"""
PV_WAIT = """                               TMA_TILE, False)
        acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7 = warpgroup_mma_wait(
            num_outstanding=0, deps=(acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7))
    return acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7
"""
PV_WAIT_PIPE = """                               TMA_TILE, False)
    acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7 = warpgroup_mma_wait(
        num_outstanding=0, deps=(acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7))
    return acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7
"""


def pvpipe(text):
    return prev.once(prev.once(text, PV_GROUP, PV_GROUP_PIPE), PV_WAIT, PV_WAIT_PIPE)


if __name__ == "__main__":
    src, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    text = src.read_text()
    for name in sys.argv[3:]:
        (out / f"{name}.py").write_text(globals()[name](text))
