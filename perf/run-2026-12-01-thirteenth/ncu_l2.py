"""Under Nsight Compute (thirteenth session): HBM bytes read and written by
an attention kernel right after gen bench's 2 GiB clear (L2 full of its
modified lines), for each submission file given, so that the write-backs a
call pays can be counted with and without an L2 cache policy on its loads.

    ncu --cache-control none --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum \
        -k regex:_gluon --csv python3 ncu_l2.py base.py ef.py el.py

NCU_SHAPES=256x1024,256x8192 (batch x kv_len); REPS calls a file a shape.
"""
import os
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from generator.gpu.harness import import_submission  # noqa: E402
from generator.gpu.inputs import make_inputs, uniform_case  # noqa: E402

SHAPES = [tuple(map(int, s.split("x"))) for s in os.environ.get("NCU_SHAPES", "256x1024,256x8192,64x8192").split(",")]
REPS = int(os.environ.get("REPS", "3"))


def main():
    modules = [import_submission(Path(f).read_text()) for f in sys.argv[1:]]
    scratch = torch.empty(2 << 30, dtype=torch.uint8, device="cuda")
    for i, (batch, kv_len) in enumerate(SHAPES):
        data = make_inputs(uniform_case(f"b{batch}_kv{kv_len}", batch, kv_len), 100 + i, "cuda", "e4m3fn")
        for m in modules:
            for _ in range(REPS):
                torch.cuda.synchronize()
                scratch.zero_()
                m.custom_kernel(data)
                torch.cuda.synchronize()
        del data


if __name__ == "__main__":
    main()
