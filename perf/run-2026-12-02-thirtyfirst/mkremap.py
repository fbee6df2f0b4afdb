"""Thirty-first session: the claim_tiles shapes' programs renumbered so that a
row's splits sit two apart in the launch order (checked text edit of a build).

    python3 perf/run-2026-12-02-thirtyfirst/mkremap.py IN.py OUT.py [near]

The hardware hands out a grid's programs in linear order (axis 0 fastest),
two consecutive ones to the two SMs of a TPC and the next pair to another
GPC (the nineteenth session's raw stamps of b32 kv8192). With program (b, s)
as row b, split s, a row's splits are batch apart in that order, and on
b32 kv8192 three of a row's four land in one GPC: claim_tiles then
balances the row's tiles among SMs of one speed. Renumbered (CLAIM_TILES
kernels only, even batch): linear index L -> row (L // 2S) * 2 + L % 2,
split (L % 2S) // 2, so that a row's S splits are 2 apart in L.
With "near" (run 3): row L // S, split L % S, a row's splits consecutive
in L (pairs of them on one TPC).
"""

import sys
from pathlib import Path

OLD = """    pid_b = gl.program_id(0)
    # DV_SPLIT programs per split, program v_half of them computing output
    # dims [v_half * 512 / DV_SPLIT, (v_half + 1) * 512 / DV_SPLIT)
    pid_m = gl.program_id(1)
"""
NEAR = """    if CLAIM_TILES:
        # (thirty-first session's probe: a row's splits consecutive in launch order)
        lin = gl.program_id(0) + gl.num_programs(0) * gl.program_id(1)
        pid_b = lin // gl.num_programs(1)
        pid_m = lin % gl.num_programs(1)
    else:
        pid_b = gl.program_id(0)
        pid_m = gl.program_id(1)
"""
NEW = """    if CLAIM_TILES:
        # (thirty-first session's probe: a row's splits 2 apart in launch order)
        lin = gl.program_id(0) + gl.num_programs(0) * gl.program_id(1)
        blk = 2 * gl.num_programs(1)
        pid_b = (lin // blk) * 2 + lin % 2
        pid_m = (lin % blk) // 2
    else:
        pid_b = gl.program_id(0)
        pid_m = gl.program_id(1)
"""


def main() -> None:
    src = Path(sys.argv[1]).read_text()
    assert src.count(OLD) == 1, "the kernel's program ids changed: update this probe"
    new = NEAR if sys.argv[3:] == ["near"] else NEW
    Path(sys.argv[2]).write_text(src.replace(OLD, new))


if __name__ == "__main__":
    main()
