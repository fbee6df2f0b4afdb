"""Thirty-second session: claim_tiles' producer warps claim a ring's next
tile before its slot frees, not after (checked text edit of a build).

    python3 perf/run-2026-12-02-thirtysecond/mkclaim.py IN.py OUT.py ahead|near

The committed producer (_gl_claim_ring) waits for the consumer to free a
slot, then claims the row's next tile with an atomic add on the row's
counter, then requests the tile: every refill pays the atomic's round trip
to L2 before its TMA goes out. "ahead": the next claim is made as soon as a
tile is requested, so that it returns while the consumer still holds the
slot; the refill then goes out the moment the slot frees. A claimed tile is
held for up to a tile's work, which can unbalance the row's end: "near"
claims ahead only while the claimed tile is more than the row's Q_ROW
warpgroups from the row's end, and after the wait from then on.
"""

import sys
from pathlib import Path

OLD = """    while more:
        slot = j % STAGES
        mbarrier.wait(empty.index(slot), ((j // STAGES) & 1) ^ 1)
        t = Q_ROW * STAGES + gl.atomic_add(claims, 1, sem="relaxed", scope="gpu").to(gl.int32)
        idx_smem.index(slot).store(gl.full([1], 0, gl.int32, layout=one) + t)
        gl.thread_barrier()
        more = t < t_row
        _gl_issue_tile(kv_desc, kv_tile_desc, kv_smem, kv_smem, bars.index(slot), row_start + t * GL_BLOCK_N, slot,
                       more, TMA_TILE, False)
        mbarrier.arrive(bars.index(slot), pred=t >= t_row)
        j += 1
"""
AHEAD = """    t = Q_ROW * STAGES + gl.atomic_add(claims, 1, sem="relaxed", scope="gpu").to(gl.int32)
    while more:
        slot = j % STAGES
        mbarrier.wait(empty.index(slot), ((j // STAGES) & 1) ^ 1)
        idx_smem.index(slot).store(gl.full([1], 0, gl.int32, layout=one) + t)
        gl.thread_barrier()
        more = t < t_row
        _gl_issue_tile(kv_desc, kv_tile_desc, kv_smem, kv_smem, bars.index(slot), row_start + t * GL_BLOCK_N, slot,
                       more, TMA_TILE, False)
        mbarrier.arrive(bars.index(slot), pred=t >= t_row)
        if more:
            t = Q_ROW * STAGES + gl.atomic_add(claims, 1, sem="relaxed", scope="gpu").to(gl.int32)
        j += 1
"""
NEAR = """    t = Q_ROW * STAGES + gl.atomic_add(claims, 1, sem="relaxed", scope="gpu").to(gl.int32)
    held = True
    while more:
        slot = j % STAGES
        mbarrier.wait(empty.index(slot), ((j // STAGES) & 1) ^ 1)
        if not held:
            t = Q_ROW * STAGES + gl.atomic_add(claims, 1, sem="relaxed", scope="gpu").to(gl.int32)
        idx_smem.index(slot).store(gl.full([1], 0, gl.int32, layout=one) + t)
        gl.thread_barrier()
        more = t < t_row
        _gl_issue_tile(kv_desc, kv_tile_desc, kv_smem, kv_smem, bars.index(slot), row_start + t * GL_BLOCK_N, slot,
                       more, TMA_TILE, False)
        mbarrier.arrive(bars.index(slot), pred=t >= t_row)
        held = more & (t + Q_ROW < t_row)
        if held:
            t = Q_ROW * STAGES + gl.atomic_add(claims, 1, sem="relaxed", scope="gpu").to(gl.int32)
        j += 1
"""


def main() -> None:
    src = Path(sys.argv[1]).read_text()
    assert src.count(OLD) == 1, "the claim loop changed: update this probe"
    new = {"ahead": AHEAD, "near": NEAR}[sys.argv[3]]
    Path(sys.argv[2]).write_text(src.replace(OLD, new))


if __name__ == "__main__":
    main()
