"""Experiment (2026-12-01): how fast could the gluon consumer go with fewer HBM bytes?

Times several submission files' shapes in one process, the variants
interleaved call by call, with the L2 left dirty by a 2 GiB clear (as gen
bench) and clean (the same clear, then an untimed 1 GiB read):

    python3 perf/run-2026-12-01-bound/bound.py OUT.json fp8.py fp8_half.py ...

BOUND_SHAPES=4x1024,32x1024 times only those shapes (batch x kv_len);
BOUND_STATES=dirty only the dirty-L2 calls; BOUND_RUNS=300 more calls per file;
BOUND_SHUFFLE=1 a new file order every round (see SHUFFLE below).

The files (not kept: each is a build plus one line). fp8.py is
build/h200/submission.py at be98a8a. fp8_half.py / fp8_none.py are fp8.py with
one line added at the top of _gl_issue_tile's body, after its docstring:

    row = (row // (2 * GL_BLOCK_N)) * GL_BLOCK_N   # fp8_half: tile pairs read the same rows
    row = row % 16384                              # fp8_none: every tile from the first 16384 rows

fp8_half reads half the distinct bytes from HBM (the second tile of a pair
hits L2) with the consumer's work unchanged; fp8_none reads 9.4 MB that stay
in L2, so it times the consumer alone. Their outputs are wrong on purpose:
timing only. mxfp4_s3.py: the build of perf/specs/h200-mxfp4-gluon-s3.yaml.
fp8_rowpairs.py: build/h200 at 9f980aa (rowpairs.patch); fp8_vprefetch.py:
specs/h200.yaml built with vprefetch.patch applied; vregs_small.py: the build
of perf/specs/h200-vregs-small.yaml at 9f980aa; *_none: the same line added.
"""

import json
import os
import random
import statistics
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from generator.gpu.harness import import_submission  # noqa: E402
from generator.gpu.inputs import make_inputs, uniform_case  # noqa: E402
from scripts.l2_state import call_us  # noqa: E402

SHAPES = [(4, 1024), (4, 8192), (32, 1024), (32, 8192), (64, 1024), (64, 8192), (256, 1024), (256, 8192)]
RUNS = int(os.environ.get("BOUND_RUNS", "100"))
# BOUND_SHUFFLE=1: the files in a new (seeded) order every round. Under the
# 2 GiB clear every fourth timed call reads about 1 us slower (twelfth
# session, run 16, also plain torch reads), so a fixed order of an even
# number of files pins some files to the slow call.
SHUFFLE = os.environ.get("BOUND_SHUFFLE", "") == "1"
rng = random.Random(0)


def main() -> None:
    out_path, files = Path(sys.argv[1]), sys.argv[2:]
    shapes = [tuple(map(int, s.split("x"))) for s in os.environ.get("BOUND_SHAPES", "").split(",") if s] or SHAPES
    states = os.environ.get("BOUND_STATES", "dirty,clean").split(",")
    modules = {Path(f).stem: import_submission(Path(f).read_text()) for f in files}
    scratch = torch.empty(2 << 30, dtype=torch.uint8, device="cuda")
    flush = torch.empty(256 << 20, dtype=torch.float32, device="cuda")
    results = {"device": torch.cuda.get_device_name(), "runs": RUNS, "shapes": {}}
    for batch, kv_len in shapes:
        i = SHAPES.index((batch, kv_len))
        case = uniform_case(f"b{batch}_kv{kv_len}", batch, kv_len)
        data = make_inputs(case, 100 + i, "cuda", "e4m3fn")
        for m in modules.values():
            for _ in range(3):
                m.custom_kernel(data)
        times = {(n, s): [] for n in modules for s in states}
        order = list(modules.items())
        for _ in range(RUNS):
            if SHUFFLE:
                rng.shuffle(order)
            for n, m in order:
                for s in states:
                    times[(n, s)].append(call_us(lambda: m.custom_kernel(data), scratch, flush, s))
        row = {f"{n}.{s}": statistics.median(v) for (n, s), v in times.items()}
        results["shapes"][case.name] = row
        print(case.name.ljust(12), "  ".join(f"{k} {v:8.2f}" for k, v in row.items()), flush=True)
        del data
    out_path.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
