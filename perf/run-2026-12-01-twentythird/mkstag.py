"""The sixth device call's variants (twenty-third session), as checked text
edits of a build of specs/h200-lf.yaml (late_fill on b4 kv8192, b32 kv1024
and b64 kv1024):

    python3 mkstag.py BUILD.py OUT_DIR

stag: the ring's second tile requested once Q is in shared memory (before
the first tile lands), the later ones once the first is in (as late_fill);
qfill: every later stage once Q is in. Hypothesis: the first burst's tiles
land interleaved (each program's first tile late in its burst); spacing the
requests would let the first tiles land first.
"""

import sys
from pathlib import Path

OLD_Q = '''    _gl_store_q(q_smem.index(8), q8, Q_SCALE)
    _gl_smem_ready()
'''
STAG_Q = OLD_Q + '''    if LATE_FILL and CONSUMERS == 1 and STAGES > 1:
        # (variant: the ring's second tile once Q is in, before the first lands)
        _gl_issue_tile(kv_desc, kv_tile_desc, kv_smem, rope_smem, bars.index(1),
                       row0 + _gl_tile_offset(1, n_tiles, rot, STAGGER, 1), 1, 1 < n_tiles, TMA_TILE, False)
'''
QFILL_Q = OLD_Q + '''    if LATE_FILL and CONSUMERS == 1:
        # (variant: the ring's later stages once Q is in, before the first tile lands)
        for k in gl.static_range(1, STAGES):
            _gl_issue_tile(kv_desc, kv_tile_desc, kv_smem, rope_smem, bars.index(k),
                           row0 + _gl_tile_offset(k, n_tiles, rot, STAGGER, 1), k, k < n_tiles, TMA_TILE, False)
'''
OLD_L = '''        if LATE_FILL:
            # the ring's later stages, now that its first tile is in
            for k in gl.static_range(1, STAGES):'''


def main():
    src, out = Path(sys.argv[1]).read_text(), Path(sys.argv[2])
    assert src.count(OLD_Q) == 1 and src.count(OLD_L) == 1
    stag = src.replace(OLD_Q, STAG_Q).replace(OLD_L, OLD_L.replace("range(1, STAGES)", "range(1 if STEP == 2 else 2, STAGES)"))
    qfill = src.replace(OLD_Q, QFILL_Q).replace(OLD_L, OLD_L.replace("range(1, STAGES)", "range(1, STAGES if STEP == 2 else 1)"))
    (out / "stag.py").write_text(stag)
    (out / "qfill.py").write_text(qfill)


if __name__ == "__main__":
    main()
