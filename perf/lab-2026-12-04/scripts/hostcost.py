"""Experiment material: host cost per call of a build's runners (calls issued
without waiting), and a cProfile of where it goes.

    python .lab/hostcost.py FILE OUT_PREFIX
"""
import cProfile
import io
import pstats
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from generator.gpu.harness import import_submission  # noqa: E402
from generator.gpu.inputs import make_inputs, uniform_case  # noqa: E402

SHAPES = [(4, 1024), (4, 8192), (32, 1024), (32, 8192), (64, 1024), (64, 8192), (256, 1024), (256, 8192)]
m = import_submission(Path(sys.argv[1]).read_text())
prefix = sys.argv[2]
lines = []
for b, kv in SHAPES:
    tag = f"b{b}_kv{kv}"
    data = make_inputs(uniform_case(tag, b, kv), 3, "cuda", "e4m3fn")
    for _ in range(5):
        m.custom_kernel(data)
    torch.cuda.synchronize()
    n = 20 if b == 256 and kv == 8192 else 100
    t0 = time.perf_counter()
    for _ in range(n):
        m.custom_kernel(data)
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    lines.append(f"{tag} host_us_per_call {(t1 - t0) / n * 1e6:.1f}")
    print(lines[-1], flush=True)
    if tag == "b32_kv1024":
        pr = cProfile.Profile()
        pr.enable()
        for _ in range(200):
            m.custom_kernel(data)
        pr.disable()
        torch.cuda.synchronize()
        s = io.StringIO()
        pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(30)
        pstats.Stats(pr, stream=s).sort_stats("cumulative").print_stats(30)
        Path(prefix + "-profile.txt").write_text(s.getvalue())
    del data
Path(prefix + ".txt").write_text("\n".join(lines) + "\n")
