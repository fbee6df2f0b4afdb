"""Hand-tuning aid for one GPU: time variants of a spec's shapes and print a table.

Each candidate is the spec's entry for a shape with some fields changed; it is
rendered through the same templates, checked against the float32 reference
(a candidate over the strict bound is reported as failed, never timed) and
timed with the leaderboard's method. Results go to a JSON file; nothing is
written back to the spec (that is `gen tune`'s job).

    python3 scripts/sweep.py --spec specs/h200.yaml --plan splits --json out.json
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
import traceback


from generator.core import registry
from generator.core.spec import load_spec
from generator.gpu.bench import Clock
from generator.gpu.check import _rel, strict_bound
from generator.gpu.harness import build_module
from generator.gpu.inputs import FP8_DTYPES, make_inputs, uniform_case
from generator.gpu.reference import exact_reference

SPLITS = {
    (4, 1024): (8, 16, 32), (4, 8192): (16, 32, 64), (32, 1024): (4, 8, 16),
    (32, 8192): (4, 8, 16), (64, 1024): (2, 4, 8), (64, 8192): (2, 4, 8),
    (256, 1024): (1, 2), (256, 8192): (1, 2, 4),
}


def knobs(backend: str):
    """One field changed at a time, over the registry's search space for the backend."""
    for name, values in registry.BACKENDS[backend].search_space.items():
        if name == "splits":
            continue
        for value in values:
            yield {name: value}


def _variants():
    for mma_m in ("heads", "kv"):
        for v_reload in (True, False):
            for block_n in (32, 64):
                for warps in (4, 8):
                    yield {"mma_m": mma_m, "v_reload": v_reload, "block_n": block_n,
                           "num_warps": warps}
    for extra in ({"q_mode": "fp8_static"}, {"mma_dtype": "fp16"}, {"num_stages": 1},
                  {"num_stages": 3}):
        yield {"mma_m": "heads", "v_reload": True, "block_n": 32, "num_warps": 4, **extra}


def candidates(shape, plan_name):
    base = shape.tuning()
    key = (shape.batch, shape.kv_len)
    if plan_name == "final":
        best = {"mma_m": "heads", "v_reload": True, "block_n": 32, "num_warps": 4,
                "mma_dtype": "fp16"}
        for splits in SPLITS.get(key, (1, 2, 4)):
            for extra in ({"num_stages": 3}, {"num_stages": 3, "q_mode": "fp8_static"},
                          {"num_stages": 4}):
                fields = {k: v for k, v in base.items() if k != "splits"}
                fields.update(best, **extra)
                if splits == 1:
                    yield {"backend": "triton_single", **fields}
                else:
                    yield {"backend": "triton_split", **fields, "splits": splits}
        return
    if plan_name == "merge":
        if "merge" not in registry.BACKENDS[shape.backend].fields:
            return
        for splits in SPLITS.get(key, (2, 4)):
            for merge in ("kernel", "last_split"):
                yield {"backend": "triton_split", **base, "splits": splits, "merge": merge}
        return
    if plan_name == "variants":
        for v in _variants():
            yield {"backend": shape.backend, **base, **v}
        return
    if plan_name == "splits":
        for s in SPLITS.get(key, (1, 2, 4)):
            if s == 1:
                yield {"backend": "triton_single", **{k: v for k, v in base.items() if k != "splits"}}
            else:
                yield {"backend": "triton_split", **base, "splits": s}
    else:
        yield {"backend": shape.backend, **base}
        for knob in knobs(shape.backend):
            yield {"backend": shape.backend, **base, **knob}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--spec", default="specs/h200.yaml")
    ap.add_argument("--plan", choices=["splits", "knobs", "variants", "final", "merge"], default="splits")
    ap.add_argument("--shapes", nargs="*", default=None, help="batch:kv_len pairs")
    ap.add_argument("--json", required=True)
    ap.add_argument("--seconds", type=float, default=1.0)
    args = ap.parse_args()
    spec = load_spec(args.spec)
    clock = Clock(1024, "benchmark", args.seconds)
    fp8 = FP8_DTYPES[spec.target.fp8_format]
    rows = []
    for shape in spec.shapes:
        if args.shapes and f"{shape.batch}:{shape.kv_len}" not in args.shapes:
            continue
        case = uniform_case("sweep", shape.batch, shape.kv_len)
        data = make_inputs(case, 7, "cuda", spec.target.fp8_format)
        for cand in candidates(shape, args.plan):
            fields = {"batch": shape.batch, "kv_len": shape.kv_len, **cand}
            if "splits" not in registry.BACKENDS[fields["backend"]].fields:
                fields.pop("splits", None)
            row = {"shape": f"b{shape.batch}_kv{shape.kv_len}", **cand}
            t0 = time.time()
            try:
                entry = type(shape).model_validate(fields)
                one = dataclasses.replace(spec, shapes=(entry,))
                plan, module = build_module(one)
                out = module.custom_kernel(data).float()
                runner = plan.runners[0]
                ref = exact_reference(data, runner.kv_format, runner.q_mode, fp8, runner.q_scale)
                row["rel_err"] = _rel(out, ref)
                if row["rel_err"] > strict_bound(runner):
                    row["us"] = None
                    row["error"] = "over strict bound"
                else:
                    t = clock.time(lambda m=module, d=data: m.custom_kernel(d), idle=False)
                    row["us"], row["runs"] = t.mean_us, t.runs
            except Exception as exc:  # a candidate that fails to compile scores infinite
                row["us"], row["error"] = None, f"{type(exc).__name__}: {exc}"[:300]
                traceback.print_exc(file=sys.stderr)
            row["seconds"] = round(time.time() - t0, 1)
            rows.append(row)
            print(json.dumps(row), flush=True)
        json.dump(rows, open(args.json, "w"), indent=1)
    json.dump(rows, open(args.json, "w"), indent=1)
    best = {}
    for r in rows:
        if r.get("us") and (r["shape"] not in best or r["us"] < best[r["shape"]]["us"]):
            best[r["shape"]] = r
    print("\nbest per shape:")
    for shape, r in best.items():
        print(f"  {shape}: {r['us']:.2f} us  {({k: v for k, v in r.items() if k not in ('shape', 'us', 'runs', 'seconds', 'rel_err')})}  rel {r['rel_err']:.1e}")


if __name__ == "__main__":
    main()
