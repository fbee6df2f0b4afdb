"""Experiment (2026-12-01, nineteenth session): every program's stamps, not
their medians, with the SM each program ran on.

    python3 perf/run-2026-12-01-nineteenth/rawtl.py OUT_DIR specs/h200.yaml b256_kv1024 [tag ...]

The spec's timeline build (as gen timeline builds it), with one addition made
here to its source at a3408d6: at the entry stamp each program also writes
%smid into slot 14 (then unused; since this session the timeline build does
so itself, and the edit is skipped). Each shape is called as gen timeline calls it (8 GiB clear,
events around the call), RUNS calls, and OUT_DIR/raw-<tag>.pt holds the
(calls, programs, 16) int64 stamps and the calls' event times (us).
RAW_VARIANT=name: the timeline build edited by mkvar.py's function of that
name first (files raw-<name>-<tag>.pt).
"""

import os
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from generator.core.planner import build_plan  # noqa: E402
from generator.core.render import render  # noqa: E402
from generator.core.spec import load_spec  # noqa: E402
from generator.gpu.bench import Clock  # noqa: E402
from generator.gpu.check import filter_tags, localize, runner_for  # noqa: E402
from generator.gpu.harness import import_submission, this_platform  # noqa: E402
from generator.gpu.inputs import make_inputs, uniform_case  # noqa: E402

RUNS = int(os.environ.get("RAW_RUNS", "30"))
STORE = "    gl.store(STAMPS + (gl.program_id(0) * gl.num_programs(1) + gl.program_id(1)) * 16 + SLOT, t)\n"
SMID = STORE + """    if SLOT == 0:
        sm = gl.inline_asm_elementwise("mov.u32 $0, %smid;", "=r,r", [dep], dtype=gl.int32, is_pure=False,
                                       pack=1)
        gl.store(STAMPS + (gl.program_id(0) * gl.num_programs(1) + gl.program_id(1)) * 16 + 14, sm.to(gl.int64))
"""


def source(spec_path, tags):
    original = load_spec(spec_path)
    spec, _ = localize(original, this_platform(), interpret=False)
    filter_tags(original, spec, tags, with_fallback=False)
    plan = build_plan(spec, timeline=True)
    text = render(plan, spec)
    if "mov.u32 $0, %smid;" not in text:
        assert text.count(STORE) == 1, "the stamp function changed: update this probe"
        text = text.replace(STORE, SMID)
    variant = os.environ.get("RAW_VARIANT", "")
    if variant:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import mkvar

        text = getattr(mkvar, variant)(text)
    return plan, text


def main() -> None:
    out_dir, spec_path, tags = Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
    plan, text = source(spec_path, tags)
    if not torch.cuda.is_available():
        print("rendered; no GPU here")
        return
    module = import_submission(text)
    clock = Clock(8192, "benchmark", max_seconds=0.0)
    for r in plan.runners:
        if r.tag not in tags:
            continue
        case = uniform_case(r.tag, *r.key[:2], q_seq_len=r.key[2], num_heads=r.key[3])
        assert runner_for(plan, case) is r
        stamps = module._gl_stamps(torch.device("cuda", torch.cuda.current_device()))
        programs = r.launches[0].grid[0] * r.launches[0].grid[1]
        data = make_inputs(case, 100, "cuda", "e4m3fn")
        for _ in range(3):
            module.custom_kernel(data)
        rows, events = [], []
        for _ in range(RUNS):
            stamps.zero_()
            us, _ = clock.call(lambda: module.custom_kernel(data))
            rows.append(stamps[:programs].cpu().clone())
            events.append(us)
        torch.save({"stamps": torch.stack(rows), "event_us": events, "grid": r.launches[0].grid},
                   out_dir / f"raw-{os.environ.get('RAW_VARIANT', '') + '-' if os.environ.get('RAW_VARIANT') else ''}{r.tag}.pt")
        print(r.tag, "calls", RUNS, "median event us", sorted(events)[RUNS // 2], flush=True)
        del data


if __name__ == "__main__":
    main()
