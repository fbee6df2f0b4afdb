"""Variants of a build for the nineteenth session's one-process comparisons
(timing; text edits of the generated file, checked to apply exactly once).

    python3 perf/run-2026-12-01-nineteenth/mkvar.py build/h200/submission.py OUT_DIR [SPLIT2_BUILD]

qfirst: with speculate, Q's loads are converted and stored to shared memory
before the ring's first requests, so that Q is not queued behind them (the
raw timeline of run 1: on b64 kv1024 every program's first scores came 0.51
us after its Q was in, at 4.9-6.4 us: Q, not the tile, was the gate).
qfirst2: qfirst, and the one-warpgroup kernels' indptr loads issued with Q's
(before the ring's requests, not behind them).
qtma: Q's chunks (bf16) by TMA into shared memory, requested before the
ring's first tiles on one barrier (the loads then wait for it and convert
from shared memory): Q's requests at the head of each program's TMA queue
instead of nine LDGs beside it (the fall-back reload of a missed guess
stays on LDGs).
tail2, tail4, tail8 (on a build whose b256 entries run 2 splits with the merge
kernel, specs/h200-split2.yaml): split 0 of a 2-split row takes all but the
last 2 (4, 8) tiles, split 1 the rest. The grid's split-0 programs are
dispatched first, so the short split-1 programs go to SMs as they free up:
the hardware's block scheduler balances the rows' tails across SMs (item 2:
SMs of some GPCs run about 10% faster). Every 2-split kernel of the file
changes; only the b256 shapes are timed from it.
"""
import sys
from pathlib import Path

LOAD = """        q0, q1, q2, q3, q4, q5, q6, q7, q8 = _gl_load_q(Q + pid_b * stride_q_t + q_cols, stride_q_d)
"""
STORE = "".join(f"    _gl_store_q(q_smem.index({c}), q{c}, Q_SCALE)\n" for c in range(9))
RELOAD = """        if row != pid_b:
            q0, q1, q2, q3, q4, q5, q6, q7, q8 = _gl_load_q(Q + row * stride_q_t + q_cols, stride_q_d)
"""
PLAIN = """    else:
        q0, q1, q2, q3, q4, q5, q6, q7, q8 = _gl_load_q(Q + row * stride_q_t + q_cols, stride_q_d)
"""


def indent(block, n):
    return "".join(" " * n + line + "\n" for line in block.splitlines())


def once(text, old, new):
    assert text.count(old) == 1, old
    return text.replace(old, new)


def qfirst(text):
    text = once(text, LOAD, LOAD + indent(STORE, 4) + "        _gl_smem_ready()\n")
    text = once(text, RELOAD, RELOAD + indent(STORE, 8))
    text = once(text, PLAIN, PLAIN + indent(STORE, 4))
    text = once(text, "    # -- Q: quantised to fp8 with the static scale, into shared memory --\n" + STORE,
                "    # -- Q: quantised to fp8 with the static scale, into shared memory (qfirst: above) --\n")
    return text


INDPTRS = """    if CONSUMERS == 1:
        # (loaded before the first tile's request, they are used at once:
        # the compiler puts the arithmetic there, and the request waits)
        row, kv_start, kv_end = _gl_load_indptrs(QO_INDPTR, KV_INDPTR, pid_b)
"""


def qfirst2(text):
    text = qfirst(text)
    text = once(text, INDPTRS, "")
    text = once(text, LOAD, LOAD + """        if CONSUMERS == 1:
            row, kv_start, kv_end = _gl_load_indptrs(QO_INDPTR, KV_INDPTR, pid_b)
""")
    # the non-speculative path loads them where it did
    text = once(text, "    kv_len = kv_end - kv_start\n", """    if GUESS_KV_LEN == 0 and CONSUMERS == 1:
        row, kv_start, kv_end = _gl_load_indptrs(QO_INDPTR, KV_INDPTR, pid_b)
    kv_len = kv_end - kv_start
""")
    return text


QTMA_HOST = """

_GL_QB_LAYOUT = gl.NVMMASharedLayout.get_default_for([16, 64], gl.bfloat16)


def _mla_gluon_q_desc(q):
    rows = q.reshape(q.shape[0] * q.shape[1], q.shape[2])
    if rows.stride(1) != 1 or rows.stride(0) % 16 or rows.data_ptr() % 16:
        rows = rows.contiguous()
    return TensorDescriptor(rows, list(rows.shape), list(rows.stride()), [16, 64], _GL_QB_LAYOUT)
"""
QTMA_ISSUE = """{i}qb_smem = gl.allocate_shared_memory(gl.bfloat16, [GL_NCHUNK, 16, GL_DCHUNK], _GL_QB_LAYOUT)
{i}qbar = gl.allocate_shared_memory(gl.int64, [1, 1], mbarrier.MBarrierLayout())
{i}mbarrier.init(qbar.index(0), count=1)
{i}fence_async_shared()
{i}gl.thread_barrier()
{i}mbarrier.expect(qbar.index(0), GL_NCHUNK * 16 * GL_DCHUNK * 2)
{i}for c in gl.static_range(GL_NCHUNK):
{i}    tma.async_copy_global_to_shared(q_desc, [{row} * 16, c * GL_DCHUNK], qbar.index(0), qb_smem.index(c))
"""
QTMA_WAIT = """    mbarrier.wait(qbar.index(0), 0)
""" + "".join(f"    q{c} = qb_smem.index({c}).load(q_layout)\n" for c in range(9)) + """    if GUESS_KV_LEN > 0:
        if row != pid_b:
            q0, q1, q2, q3, q4, q5, q6, q7, q8 = _gl_load_q(Q + row * stride_q_t + q_cols, stride_q_d)
"""


def qtma(text):
    assert text.count("Q, kv_desc, kv_tile_desc") == 17 and text.count("q, kv_desc, kv_tile_desc") == 8
    text = text.replace("Q, kv_desc, kv_tile_desc", "Q, q_desc, kv_desc, kv_tile_desc")
    text = text.replace("q, kv_desc, kv_tile_desc", "q, _mla_gluon_q_desc(q), kv_desc, kv_tile_desc")
    text = once(text, "\n\ndef _mla_gluon_kv_desc(kv, tile_copies):", QTMA_HOST + "\n\ndef _mla_gluon_kv_desc(kv, tile_copies):")
    text = once(text, LOAD, QTMA_ISSUE.format(i=" " * 8, row="pid_b"))
    text = once(text, RELOAD, "")
    text = once(text, PLAIN, "    else:\n" + QTMA_ISSUE.format(i=" " * 8, row="row"))
    text = once(text, "    # -- Q: quantised to fp8 with the static scale, into shared memory --\n",
                "    # -- Q: quantised to fp8 with the static scale, into shared memory --\n" + QTMA_WAIT)
    return text


SPLIT_LEN = """    split_len = ((kv_len + NUM_SPLITS - 1) // NUM_SPLITS + GL_BLOCK_N - 1) // GL_BLOCK_N * GL_BLOCK_N
    lo = pid_s * split_len
    hi = gl.minimum(lo + split_len, kv_len)
"""


def tail(text, tiles):
    return once(text, SPLIT_LEN, f"""    if NUM_SPLITS == 2:
        head = gl.maximum((kv_len + GL_BLOCK_N - 1) // GL_BLOCK_N - {tiles}, 1) * GL_BLOCK_N
        lo = pid_s * head
        hi = gl.minimum(head + pid_s * kv_len, kv_len)
    else:
""" + "".join("    " + line + "\n" for line in SPLIT_LEN.splitlines()))


def tail2(text):
    return tail(text, 2)


def tail4(text):
    return tail(text, 4)


def tail8(text):
    return tail(text, 8)


def main():
    src, out = Path(sys.argv[1]).read_text(), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    for name in ("base_a", "base_b", "base_c"):
        (out / f"{name}.py").write_text(src)
    (out / "qfirst.py").write_text(qfirst(src))
    (out / "qfirst2.py").write_text(qfirst2(src))
    (out / "qtma.py").write_text(qtma(src))
    if len(sys.argv) > 3:  # the 2-split build: its plain copy and its tails
        split2 = Path(sys.argv[3]).read_text()
        (out / "even.py").write_text(split2)
        (out / "tail2.py").write_text(tail2(split2))
        (out / "tail4.py").write_text(tail4(split2))
        (out / "tail8.py").write_text(tail8(split2))


if __name__ == "__main__":
    main()
