"""Split-major partials (split, row, head, dim) in a built file, by text edit (timing experiment)."""
import sys
from pathlib import Path
s = Path(sys.argv[1]).read_text()
pairs = [
 ("        part = (row * NUM_SPLITS + pid_s) * GL_NUM_HEADS", "        part = (pid_s * gl.num_programs(0) + row) * GL_NUM_HEADS"),
 ("PART_LSE + (row * NUM_SPLITS + offs_ls[:, None]) * GL_NUM_HEADS", "PART_LSE + (offs_ls[:, None] * gl.num_programs(0) + row) * GL_NUM_HEADS"),
 ("PART_O + ((row * NUM_SPLITS + offs_s[:, None, None]) * GL_NUM_HEADS)", "PART_O + ((offs_s[:, None, None] * gl.num_programs(0) + row) * GL_NUM_HEADS)"),
]
for a, b in pairs:
    assert s.count(a) == 1, a
    s = s.replace(a, b)
Path(sys.argv[2]).write_text(s)
