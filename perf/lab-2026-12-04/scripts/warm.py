"""Experiment material: compile every file's kernels for the shapes it is timed
on, in parallel processes (Triton's disk cache then serves ab.py).

    python .lab/warm.py DIR JOBS
"""
import json
import subprocess
import sys
from pathlib import Path

SHAPES = [(4, 1024), (4, 8192), (32, 1024), (32, 8192), (64, 1024), (64, 8192), (256, 1024), (256, 8192)]

CHILD = r'''
import sys, torch
sys.path.insert(0, ".")
from generator.gpu.harness import import_submission
from generator.gpu.inputs import make_inputs, uniform_case
for item in sys.argv[1:]:
    path, tag = item.split("@")
    b, kv = (int(x) for x in tag[1:].split("_kv"))
    m = import_submission(open(path).read())
    data = make_inputs(uniform_case(tag, b, kv), 1, "cuda", "e4m3fn")
    m.custom_kernel(data)
    torch.cuda.synchronize()
    print("warm", path, tag, flush=True)
'''


def main():
    d, jobs = Path(sys.argv[1]), int(sys.argv[2])
    index = json.loads((d / "variants.json").read_text())
    items = []
    for n, (tag, _) in index.items():
        tags = [f"b{b}_kv{kv}" for b, kv in SHAPES] if tag is None else [tag]
        if n == "base_b":
            continue
        items += [f"{d / (n + '.py')}@{t}" for t in tags]
    chunks = [items[i::jobs] for i in range(jobs)]
    procs = [subprocess.Popen([sys.executable, "-c", CHILD, *c]) for c in chunks if c]
    sys.exit(max(p.wait() for p in procs))


if __name__ == "__main__":
    main()
