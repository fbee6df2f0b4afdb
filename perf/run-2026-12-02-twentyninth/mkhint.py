"""Variant (twenty-ninth session): the accesses beside the KV stream under
an L2 evict-first policy, so that they do not evict (and write back) the
clear's modified lines. A text edit of a build:
python3 mkhint.py BUILD OUT WHAT, WHAT a comma list of
  q    Q's nine chunk loads (every kernel)
  out  the bf16 output's stores (the one-pass store and the merge's)
  part the partials' stores (o and lse); their loads in the merge keep .cg,
       which ptxas refuses with an eviction priority."""
import re
import sys
from pathlib import Path

src, out, what = sys.argv[1], sys.argv[2], set(sys.argv[3].split(",")) - {""}
assert what <= {"q", "out", "part"}, what
s = Path(src).read_text()
EF = 'eviction_policy="evict_first"'


def sub(pattern, repl, count):
    global s
    s, n = re.subn(pattern, repl, s)
    assert n == count, (pattern, n)


if "q" in what:
    sub(r"(    q\d = gl\.load\(q_ptrs \+ \d \* GL_DCHUNK \* stride_q_d)\)", r"\1, " + EF + ")", 9)
if "out" in what:
    sub(r"(gl\.store\(ptrs, (?:gl\.convert_layout\()?out\.to\(gl\.bfloat16\)(?:, layout\))?)\)", r"\1, " + EF + ")", 2)
    sub(r"(offs_d\[None, :\], out\.to\(gl\.bfloat16\))\)", r"\1, " + EF + ")", 1)
if "part" in what:
    sub(r"(gl\.store\(ptrs \+ offs_d\[(?::, None|None, :)\], (?:gl\.convert_layout\()?out\.to\(PART_O\.dtype\.element_ty\)"
        r"(?:, layout\))?)\)", r"\1, " + EF + ")", 2)
    sub(r"(gl\.store\(PART_LSE \+ pid_s \* stride_pl_s \+ row \* stride_pl_t \+ offs_h, lse)\)", r"\1, " + EF + ")", 1)
Path(out).write_text(s)
