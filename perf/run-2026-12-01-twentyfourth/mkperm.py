"""The V-load bank-conflict variant (twenty-fourth session), as a checked
text edit of a build whose V-from-registers kernels it changes:

    python3 mkperm.py BUILD.py OUT.py

ncu (run 3): every V^T load (LDS.128, _gl_vt_layout) is a 2-way bank
conflict. A quarter-warp reads rows 2t (t = lane % 4, all even, or all odd)
at 16-byte units 0-1 of a 64-byte-swizzled chunk: rows of one parity fill
the same 64 bytes of the 128-byte bank line, so 8 threads fall on 4 unit
slots. With the rows of each pair swapped where t is odd (rows 2 and 3 of
every 4 exchanged in the V view), a quarter-warp reads rows {0, 3, 4, 7}:
both halves of the line, all 8 slots. P is stored through the same row
permutation, so that the PV wgmma's K index j meets V's and P's same KV row.
Only for kernels whose V comes from registers (b4 kv1024, V in shared
memory, would need its P unpermuted: leave it out of the comparison).
"""

import sys
from pathlib import Path

OLD_V = "[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 0], [2, 16], [4, 32],"
NEW_V = "[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 0], [3, 16], [4, 32],"
OLD_P = "p_buf.store(p.to(gl.float16))"
NEW_P = "_gl_p_perm(p_buf).store(p.to(gl.float16))"
HELPER = '''

@gluon.jit
def _gl_p_perm(p_buf):
    """(variant) P's (64, 16) fp16 buffer (32-byte swizzle: unit u of row k at
    u ^ (k >> 2 & 1)) seen with rows 2 and 3 of every 4 exchanged, as V's view."""
    return p_buf._reinterpret(gl.float16, [64, 16], gl.SharedLinearLayout(offset_bases=[
        [0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [3, 0], [4, 8], [8, 0], [16, 0], [32, 0]]))
'''
ANCHOR = "\n\n@gluon.jit\ndef _gl_softmax_step("


def main():
    src = Path(sys.argv[1]).read_text()
    assert src.count(OLD_V) == 1 and src.count(OLD_P) == 2 and src.count(ANCHOR) == 1
    out = src.replace(OLD_V, NEW_V).replace(OLD_P, NEW_P).replace(ANCHOR, HELPER + ANCHOR)
    Path(sys.argv[2]).write_text(out)


if __name__ == "__main__":
    main()
