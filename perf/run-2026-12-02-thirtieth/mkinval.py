"""The ring barriers' invalidation moved off the epilogue's path (thirtieth session).

python mkinval.py BUILD OUTDIR writes two variants of BUILD:
- noinval.py: without the mbarrier.invalidate loop at the end of
  _gl_attend_tiles (each invalidation a CTA barrier and one thread's
  SYNCS.CCTL.IV, one per ring stage, between the tile loop's end and the
  partial's stores). Timing only: later shared-memory buffers may then
  alias the barriers, which PTX asks to invalidate first.
- lateinval.py: the same invalidations, and the consumers-2 fold's `done`,
  made at the end of _mla_gluon_attend instead (after the merge's stores
  are issued), so that the barriers stay allocated to the end.
Each edit is checked to apply once.
"""
import sys
from pathlib import Path

LOOP_END = """    for i in gl.static_range(STAGES):
        mbarrier.invalidate(bars.index(i))
    return m_i, gl.sum(l_t, axis=0), acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7
"""
LOOP_END_NEW = """    return m_i, gl.sum(l_t, axis=0), acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7
"""
FOLD = """    mbarrier.wait(done, 0)
    mbarrier.invalidate(done)
"""
FOLD_NEW = """    mbarrier.wait(done, 0)
"""
KERNEL_END = """            gl.store(COUNTERS + gl.num_programs(0) + pid_b, 0, mask=pid_m == 0)


@gluon.constexpr_function
def _gl_merge_layout("""
KERNEL_END_NEW = """            gl.store(COUNTERS + gl.num_programs(0) + pid_b, 0, mask=pid_m == 0)
    for i in gl.static_range(STAGES):
        mbarrier.invalidate(bars.index(i))
    if CONSUMERS == 2:
        for i in gl.static_range(STAGES + 1):
            mbarrier.invalidate(bars2.index(i))


@gluon.constexpr_function
def _gl_merge_layout("""


def edit(src, old, new):
    assert src.count(old) == 1, (old[:60], src.count(old))
    return src.replace(old, new)


src = Path(sys.argv[1]).read_text()
out = Path(sys.argv[2])
no = edit(src, LOOP_END, LOOP_END_NEW)
(out / "noinval.py").write_text(no)
late = edit(edit(no, FOLD, FOLD_NEW), KERNEL_END, KERNEL_END_NEW)
(out / "lateinval.py").write_text(late)
