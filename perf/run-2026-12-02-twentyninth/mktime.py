"""Variant (twenty-ninth session): a test of pacing's premise with no
memory traffic. mkpace.py's counters cost more than any balance could win
(each tile's MEMBAR.ALL.CTA, before P's async fence, waits for the
counters' load and add). Here a program keeps to a fixed schedule
instead: tile i does not start before its entry + P_NS + i * BUDGET_NS
(%globaltimer; it sleeps 200 ns at a time while early), so the programs
that run ahead of the grid's mean rate (the fast GPCs') are held to it; if
the programs behind then speed up, the memory system's queues share the
bandwidth and a run-time pace is worth building; if not, their GPCs'
rates are their own. The constants are this GPU's, measured: a test, not a
design. Timing only. A text edit of a build, for the one-split b256 runners:

    python3 mktime.py BUILD OUT P_NS BUDGET_K1_NS BUDGET_K8_NS"""
import sys
from pathlib import Path

src, out, p_ns, b1, b8 = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
s = Path(src).read_text()


def once(old, new):
    global s
    assert s.count(old) == 1, old
    s = s.replace(old, new)


once("                     CLAIM: gl.constexpr, EARLY_REFILL: gl.constexpr):\n",
     "                     CLAIM: gl.constexpr, EARLY_REFILL: gl.constexpr, PACE_P: gl.constexpr = 0,\n"
     "                     PACE_BUDGET: gl.constexpr = 0):\n")
once("""        for i in range(n_tiles):
            # (MXFP4: V from the one decoded tile)
""", """        if PACE_BUDGET > 0:
            pace_t0 = gl.inline_asm_elementwise("mov.u64 $0, %globaltimer;", "=l,r", [n_tiles], dtype=gl.int64,
                                                is_pure=False, pack=1)
        for i in range(n_tiles):
            if PACE_BUDGET > 0:
                pace_due = pace_t0 + PACE_P + i * PACE_BUDGET
                pace_now = gl.inline_asm_elementwise("mov.u64 $0, %globaltimer;", "=l,r", [i], dtype=gl.int64,
                                                     is_pure=False, pack=1)
                while pace_now < pace_due:
                    pace_now = gl.inline_asm_elementwise("nanosleep.u32 200; mov.u64 $0, %globaltimer;", "=l,r", [i],
                                                         dtype=gl.int64, is_pure=False, pack=1)
            # (MXFP4: V from the one decoded tile)
""")
once("    Q_FILL: gl.constexpr,\n):", "    Q_FILL: gl.constexpr, PACE_P: gl.constexpr = 0, PACE_BUDGET: gl.constexpr = 0,\n):")
once("""            MXFP4, LAZY_RESCALE, 1, LATE_FROM, v_half * (GL_VCHUNK // DV_SPLIT), V_PARTS, bars, bars, 0,
            False, EARLY_REFILL)""", """            MXFP4, LAZY_RESCALE, 1, LATE_FROM, v_half * (GL_VCHUNK // DV_SPLIT), V_PARTS, bars, bars, 0,
            False, EARLY_REFILL, PACE_P, PACE_BUDGET)""")
for tag, budget in (("b256_kv1024", b1), ("b256_kv8192", b8)):
    head = f"def mla_{tag}_gluon("
    i = s.index(head)
    j = s.index("    )\n", i)
    body = s[i:j]
    assert body.count(", Q_FILL=False,\n") == 1
    s = s[:i] + body.replace(", Q_FILL=False,\n", f", Q_FILL=False, PACE_P={p_ns}, PACE_BUDGET={budget},\n") + s[j:]
Path(out).write_text(s)
