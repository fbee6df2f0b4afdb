"""gen timeline's pieces that need no GPU: the stamped build (rendered only
when asked, compiled for sm90), and the reduction of one call's stamps.
(The stamps themselves need a Hopper GPU: PERF.md, 2026-12-01.)"""

import os
from pathlib import Path
import subprocess

import pytest
import torch

from generator.core.planner import build_plan
from generator.core.render import render
from generator.core.spec import load_spec, parse_spec
from generator.gpu.timeline import SLOTS, combine, reduce_call

from conftest import ROOT

TRITON36 = Path(os.environ.get("GEN_TRITON36_PYTHON", ROOT / ".venv-triton36/bin/python"))

# Every stamp site: a V-through-shared-memory barrier shape and a two-warpgroup one.
SPEC = """target: {name: t, platform: cuda, fp8_format: e4m3fn, triton_version: "3.6.0"}
shapes:
  - {batch: 4, kv_len: 8192, backend: gluon, merge: barrier, splits: 32, v_parts: 2, v_buffers: 1}
  - {batch: 64, kv_len: 8192, backend: gluon, merge: barrier, splits: 2, consumers: 2}
fallback: {backend: triton_split, splits: 8}
"""


def test_stamps_are_rendered_only_in_a_timeline_build():
    spec = load_spec(ROOT / "specs/h200.yaml")
    plain = render(build_plan(spec), spec)
    stamped = render(build_plan(spec, timeline=True), spec)
    committed = (ROOT / "build/h200/submission.py").read_text()
    assert plain.split("\n", 1)[1] == committed.split("\n", 1)[1]  # (line 1 names the spec's path)
    assert "_gl_stamp" not in plain and "STAMPS" not in plain
    # entry, indptrs, Q, first scores and loop end (both warpgroups), hand-over,
    # past warp_specialize, fold, stores, arrival, barrier passed, merged
    assert stamped.count("_gl_stamp(STAMPS,") == 13
    assert stamped.count("stamps = _gl_stamps(q.device)") == len(spec.shapes)


def test_a_timeline_build_compiles_for_sm90_without_spills(tmp_path):
    """The stamped kernels through the resource report's compile path, with
    triton 3.6.0 (the venv `make test` sets up)."""
    if not TRITON36.is_file():
        pytest.skip(f"no triton 3.6 venv at {TRITON36} (`make test` creates it)")
    spec = parse_spec(SPEC, "t.yaml")
    source = tmp_path / "stamped.py"
    source.write_text(render(build_plan(spec, timeline=True), spec))
    probe = (
        "import sys\n"
        "from pathlib import Path\n"
        "from generator.resources.aot import compile_build\n"
        "if __name__ == '__main__':\n"
        "    for r in compile_build(Path(sys.argv[1]).read_text(), 'e4m3fn', 'sm90', 2):\n"
        "        print(r['kernel'], r['spilled_registers'])\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    env["PYTHONPATH"] = str(ROOT)
    script = tmp_path / "probe.py"
    script.write_text(probe)
    proc = subprocess.run([str(TRITON36), str(script), str(source)], env=env, capture_output=True, text=True,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    spilled = dict(line.split() for line in proc.stdout.splitlines())
    assert {k: v for k, v in spilled.items() if "gluon" in k} == {
        "mla_b4_kv8192_gluon_split32": "0", "mla_b64_kv8192_gluon_split2": "0"}


def _stamps(rows):
    out = torch.zeros(len(rows), 16, dtype=torch.int64)
    for i, row in enumerate(rows):
        for slot, ns in row.items():
            out[i, slot] = ns
    return out


def test_one_call_reduces_to_the_median_and_the_latest_program():
    base = 5_000_000_000  # %globaltimer is ns since some epoch: only differences count
    rows = [
        {0: base + 256, 1: base + 1256, 3: base + 3256, 4: base + 9256, 5: base + 9756, 15: 4},
        {0: base, 1: base + 1000, 3: base + 2000, 4: base + 8000, 5: base + 8512, 15: 4},
        {0: base + 512, 1: base + 1512, 3: base + 4512, 4: base + 12512, 5: base + 13024, 15: 3},
        {},  # a program that never ran (a larger buffer than the grid)
    ]
    call = reduce_call(_stamps(rows), event_us=16.5)
    assert call.programs == 3 and call.tiles == 4
    assert call.median[0] == pytest.approx(0.256) and call.latest[0] == pytest.approx(0.512)
    assert call.median[4] == pytest.approx(9.256) and call.latest[4] == pytest.approx(12.512)
    assert call.span_us == pytest.approx(13.024)
    assert 6 not in call.median  # no merge barrier in this kernel

    later = reduce_call(_stamps([{0: base, 4: base + 10_000, 5: base + 11_000, 15: 4}]), event_us=15.0)
    row = combine([call, later, call])
    assert row["calls"] == 3 and row["event_us"] == 16.5 and row["span_us"] == pytest.approx(13.024)
    assert row["outside_us"] == pytest.approx(16.5 - 13.024)
    assert list(row["slots"]) == [SLOTS[s] for s in (0, 1, 3, 4, 5)]
    assert row["slots"]["tile loop done"] == {"slot": 4, "median_us": pytest.approx(9.256),
                                              "latest_us": pytest.approx(12.512)}
    assert row["slots"]["indptrs in"]["median_us"] == pytest.approx(1.256)


def test_a_spec_without_gluon_entries_is_refused_before_any_gpu_work():
    from generator.errors import UserError
    from generator.gpu.timeline import timeline_rows

    with pytest.raises(UserError, match=r"no entry to time \(only these backends' kernels write stamps: gluon\)"):
        timeline_rows(ROOT / "specs/mi355x.yaml")
