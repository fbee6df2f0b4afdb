"""Call one runner of a generated submission a few times, for a profiler.

    ncu -k regex:mla_b256_kv8192 python3 scripts/profile_runner.py build/h200/submission.py 256 8192
    ... profile_runner.py build/h200/submission.py 256 64 6 run_b256_kv1024   (one runner, any length)

Inputs as the task makes them (generator/gpu/inputs.py); the first two calls
compile and warm up, so profile from the third launch on (ncu -s).
"""

import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.gpu.harness import import_submission  # noqa: E402
from generator.gpu.inputs import make_inputs, uniform_case  # noqa: E402


def main() -> None:
    path, batch, kv_len = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    calls = int(sys.argv[4]) if len(sys.argv) > 4 else 4
    module = import_submission(Path(path).read_text())
    data = make_inputs(uniform_case("profile", batch, kv_len), 1, "cuda", "e4m3fn")
    if len(sys.argv) > 5:
        runner = getattr(module, sys.argv[5])
        for _ in range(calls):
            runner(*data)
    else:
        for _ in range(calls):
            module.custom_kernel(data)
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
