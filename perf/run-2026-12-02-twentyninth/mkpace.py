"""Variant (twenty-ninth session): pacing. The SMs' loop ends spread by
3.5 us on b256 kv1024 and more on b256 kv8192, by GPC (the nineteenth
session's raw stamps): while HBM is saturated every program's tiles queue,
and a program ahead of the grid's progress still asks for its share. Here a
program compares its own progress (tiles done / its tiles) with the grid's
(tiles done / tiles registered, two monotonic int64 counters) and, when
ahead, sleeps before its next tile, so that its requests wait and the
programs behind get the memory. The counters are spread over LINES lines
(a program adds to line pid % LINES, reads them all): run 2's one line, a
relaxed add a tile from every program and two loads of it, cost b256
kv8192 95 us with no sleep at all. Timing only (the outputs do not depend
on it). A text edit of a build, for the one-split b256 runners:

    python3 mkpace.py BUILD OUT SLEEP_NS SLACK [TAGS [LINES]]

SLEEP_NS: nanosleep's argument (below 0: the adds alone, no loads, no check); SLACK: tiles a program may run ahead (its
view of the grid is one tile old); TAGS: the runners (b256_kv1024,b256_kv8192)."""
import sys
from pathlib import Path

src, out, sleep_ns, slack = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
tags = sys.argv[5].split(",") if len(sys.argv) > 5 else ["b256_kv1024", "b256_kv8192"]
lines = int(sys.argv[6]) if len(sys.argv) > 6 else 1
s = Path(src).read_text()


def once(old, new):
    global s
    assert s.count(old) == 1, old
    s = s.replace(old, new)


once("                     CLAIM: gl.constexpr, EARLY_REFILL: gl.constexpr):\n",
     "                     CLAIM: gl.constexpr, EARLY_REFILL: gl.constexpr, PACE: gl.constexpr = 0):\n")
LOOP_CHECK = f"""            if PACE > 0:
                # (pace_v: loaded a tile ago, reduced only now, so that the
                # loads' round trip overlaps that tile)
                if i > 1:
                    pace_a = gl.sum(gl.sum(gl.where(pace_c[None, :] == 0, pace_v, 0), axis=1), axis=0)
                    pace_b = gl.sum(gl.sum(gl.where(pace_c[None, :] == 1, pace_v, 0), axis=1), axis=0)
                    if (i - {1 + slack}) * (pace_a - pace_b0) > (pace_b - pace_b0) * n_tiles:
                        gl.inline_asm_elementwise("nanosleep.u32 {sleep_ns}; mov.u32 $0, 0;", "=r,r", [i], dtype=gl.int32,
                                                  is_pure=False, pack=1)
                pace_v = gl.load(pace_ptrs, volatile=True)
""" if sleep_ns >= 0 else ""  # SLEEP_NS < 0: the counters' adds alone, no loads, no check
once("""        for i in range(n_tiles):
            # (MXFP4: V from the one decoded tile)
""", (f"""        if PACE > 0:
            # (t_row: the pace counters, line k's tiles registered at 16 k,
            # its tiles done at 16 k + 1)
            pace_l: gl.constexpr = gl.BlockedLayout([1, 2], [32, 1], [gl.num_warps(), 1], [1, 0])
            pace_k = gl.arange(0, {lines}, layout=gl.SliceLayout(1, pace_l))
            pace_c = gl.arange(0, 2, layout=gl.SliceLayout(0, pace_l))
            pace_ptrs = t_row + pace_k[:, None] * 16 + pace_c[None, :]
            pace_mine = t_row + (gl.program_id(0) % {lines}) * 16
            pace_v = gl.load(pace_ptrs, volatile=True)
            pace_b0 = gl.sum(gl.sum(gl.where(pace_c[None, :] == 1, pace_v, 0), axis=1), axis=0)
            gl.atomic_add(pace_mine, n_tiles.to(gl.int64), sem="relaxed", scope="gpu")
""" + """        for i in range(n_tiles):
""" + LOOP_CHECK + """            # (MXFP4: V from the one decoded tile)
"""))
once("""            if MXFP4:
                # -- the next tile decoded (its slot refilled) and its scores --
""", """            if PACE > 0:
                gl.atomic_add(pace_mine + 1, 1, sem="relaxed", scope="gpu")
            if MXFP4:
                # -- the next tile decoded (its slot refilled) and its scores --
""")
once("    Q_FILL: gl.constexpr,\n):", "    Q_FILL: gl.constexpr, PACE: gl.constexpr = 0,\n):")
once("""            MXFP4, LAZY_RESCALE, 1, LATE_FROM, v_half * (GL_VCHUNK // DV_SPLIT), V_PARTS, bars, bars, 0,
            False, EARLY_REFILL)""", """            MXFP4, LAZY_RESCALE, 1, LATE_FROM, v_half * (GL_VCHUNK // DV_SPLIT), V_PARTS, bars, bars, COUNTERS,
            False, EARLY_REFILL, PACE)""")
for tag in tags:
    head = f"def mla_{tag}_gluon("
    i = s.index(head)
    j = s.index("    )\n", i)
    body = s[i:j]
    assert body.count(", Q_FILL=False,\n") == 1
    s = s[:i] + body.replace(", Q_FILL=False,\n", ", Q_FILL=False, PACE=1,\n") + s[j:]
    b = s.index(f"def _{tag}_buffers(device):")
    old = "    counters = out  # not read: no barrier\n"
    k = s.index(old, b)
    s = s[:k] + "    counters = torch.zeros((16 * 16,), dtype=torch.int64, device=device)  # pace counters\n" + s[k + len(old):]
Path(out).write_text(s)
