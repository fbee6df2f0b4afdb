"""Outputs of several submission files against the float32 reference and
against the first file, per shape (fifteenth session: variants that are hand
edits of a build, before any of them becomes a template option):

    python3 cmp.py OUT.json base.py variant.py ... [CMP_SHAPES=4x8192,32x1024]

Error: max |out - ref| / max |ref|, over two seeds, with the reference over
exactly what the runners read (fp8 KV, Q quantised with the build's static
scale); 'vs_first': the same against the first file's output.
"""

import json
import os
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from generator.gpu.harness import import_submission  # noqa: E402
from generator.gpu.inputs import make_inputs, uniform_case  # noqa: E402
from generator.gpu.reference import exact_reference  # noqa: E402


def rel(a, b):
    return ((a.float() - b.float()).abs().max() / b.float().abs().max()).item()


def main():
    out_path, files = Path(sys.argv[1]), sys.argv[2:]
    shapes = [tuple(map(int, s.split("x"))) for s in os.environ.get("CMP_SHAPES", "4x8192,32x1024").split(",")]
    mods = {Path(f).stem: import_submission(Path(f).read_text()) for f in files}
    res = {}
    for b, n in shapes:
        for seed in (1, 2):
            case = uniform_case(f"b{b}_kv{n}", b, n)
            data = make_inputs(case, seed, "cuda", "e4m3fn")
            outs = {k: m.custom_kernel(data).clone() for k, m in mods.items()}
            torch.cuda.synchronize()
            base = next(iter(outs.values()))
            for k, o in outs.items():
                row = res.setdefault(f"b{b}_kv{n}", {}).setdefault(k, {"ref": [], "vs_first": []})
                row["vs_first"].append(rel(o, base))
                row["finite"] = bool(torch.isfinite(o.float()).all())
            ref = exact_reference(data, "fp8", "fp8_static", torch.float8_e4m3fn, Q_SCALE)
            for k, o in outs.items():
                res[f"b{b}_kv{n}"][k]["ref"].append(rel(o, ref))
        print(f"b{b}_kv{n}", json.dumps(res[f"b{b}_kv{n}"]), flush=True)
    out_path.write_text(json.dumps(res, indent=1))


Q_SCALE = 0.013392857142857142  # the h200 spec's static Q scale (build/h200/submission.py)

if __name__ == "__main__":
    main()
