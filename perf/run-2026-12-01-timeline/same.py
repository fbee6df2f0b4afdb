"""Do the variant files give the committed build's outputs, bit for bit, on
every benchmark shape, and on the same keys with unequal segments (the first
empty), as gen check's uneven cases (the speculative prologue's redo path)?

    python3 perf/run-2026-12-01-timeline/same.py committed.py variant.py ...
"""

import dataclasses
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from generator.gpu.harness import import_submission  # noqa: E402
from generator.gpu.inputs import make_inputs, uniform_case  # noqa: E402

SHAPES = [(4, 1024), (4, 8192), (32, 1024), (32, 8192), (64, 1024), (64, 8192), (256, 1024), (256, 8192)]


def main() -> int:
    committed = import_submission(Path(sys.argv[1]).read_text())
    variants = {Path(f).stem: import_submission(Path(f).read_text()) for f in sys.argv[2:]}
    bad = 0
    for i, (batch, kv_len) in enumerate(SHAPES):
        base = uniform_case(f"b{batch}_kv{kv_len}", batch, kv_len)
        lens = (0,) + tuple(max(1, kv_len - (kv_len * k) // (2 * batch)) for k in range(1, batch))
        for case in (base, dataclasses.replace(base, name=base.name + "-uneven", kv_lens=lens)):
            data = make_inputs(case, 7 + i, "cuda", "e4m3fn")
            ref = committed.custom_kernel(data).clone()
            for name, m in variants.items():
                out = m.custom_kernel(data)
                same = torch.equal(out, ref)
                diff = (out.float() - ref.float()).abs().max().item()
                rel = ((out.float() - ref.float()).norm() / ref.float().norm()).item()
                bad += not same
                print(f"{case.name} {name}: {'same' if same else 'DIFFERS'} (max diff {diff:.3g}, "
                      f"relative L2 {rel:.3g})", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
