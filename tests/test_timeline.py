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
    assert stamped.count("mov.u32 $0, %smid;") == 1  # with the entry stamp, into slot 14
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
    rows = [  # (slot 14: the SM; the first two programs share SM 7)
        {0: base + 256, 1: base + 1256, 3: base + 3256, 4: base + 9256, 5: base + 9756, 14: 7, 15: 4},
        {0: base, 1: base + 1000, 3: base + 2000, 4: base + 8000, 5: base + 8512, 14: 7, 15: 4},
        {0: base + 512, 1: base + 1512, 3: base + 4512, 4: base + 12512, 5: base + 13024, 14: 3, 15: 3},
        {},  # a program that never ran (a larger buffer than the grid)
    ]
    call = reduce_call(_stamps(rows), event_us=16.5)
    assert call.programs == 3 and call.tiles == 4
    assert call.median[0] == pytest.approx(0.256) and call.latest[0] == pytest.approx(0.512)
    assert call.median[4] == pytest.approx(9.256) and call.latest[4] == pytest.approx(12.512)
    assert call.span_us == pytest.approx(13.024)
    assert 6 not in call.median  # no merge barrier in this kernel
    assert call.sm_loop_end == {7: pytest.approx(9.256), 3: pytest.approx(12.512)}  # an SM's latest program

    later = reduce_call(_stamps([{0: base, 4: base + 10_000, 5: base + 11_000, 15: 4}]), event_us=15.0)
    row = combine([call, later, call])
    assert row["calls"] == 3 and row["event_us"] == 16.5 and row["span_us"] == pytest.approx(13.024)
    assert row["outside_us"] == pytest.approx(16.5 - 13.024)
    assert list(row["slots"]) == [SLOTS[s] for s in (0, 1, 3, 4, 5)]
    assert row["slots"]["tile loop done"] == {"slot": 4, "median_us": pytest.approx(9.256),
                                              "latest_us": pytest.approx(12.512)}
    assert row["slots"]["indptrs in"]["median_us"] == pytest.approx(1.256)
    # per call the mean and the latest of the SMs' loop ends (10.884 and 12.512,
    # 10.0 and 10.0 for the one-program call on SM 0), medians over the calls
    assert row["sm_balance"] == {
        "sms": 2, "loop_end_mean_us": pytest.approx(10.884), "loop_end_latest_us": pytest.approx(12.512),
        "imbalance_us": pytest.approx(1.628),
        "loop_end_by_sm_us": {"0": pytest.approx(10.0), "3": pytest.approx(12.512), "7": pytest.approx(9.256)}}


def test_a_program_s_loop_end_is_its_later_warpgroup_s():
    base = 7_000_000_000
    # consumers 2: slot 9 is the second warpgroup's loop end; a program that
    # never reached a loop end (slot 4 and 9 unset) leaves its SM out
    rows = [{0: base, 4: base + 5000, 9: base + 6500, 14: 5, 15: 8},
            {0: base + 100, 4: base + 7000, 9: base + 6000, 14: 5, 15: 8},
            {0: base + 200, 14: 9}]
    call = reduce_call(_stamps(rows), event_us=12.0)
    assert call.sm_loop_end == {5: pytest.approx(7.0)}


def test_a_spec_without_gluon_entries_is_refused_before_any_gpu_work():
    from generator.errors import UserError
    from generator.gpu.timeline import timeline_rows

    with pytest.raises(UserError, match=r"no entry to time \(only these backends' kernels write stamps: gluon\)"):
        timeline_rows(ROOT / "specs/mi355x.yaml")


def test_the_printed_timeline_names_the_sms_that_end_first_and_last(capsys):
    from generator.gpu.timeline import print_timeline

    base = 1_000_000_000
    rows = [{0: base + 10 * i, 4: base + 10_000 + 500 * i, 14: sm, 15: 2} for i, sm in enumerate([8, 3, 5, 1, 9])]
    row = combine([reduce_call(_stamps(rows), event_us=14.0)])
    print_timeline({"shapes": {"b4_kv1024": row}})
    out = " ".join(capsys.readouterr().out.split())
    # loop ends 10.0, 10.5, 11.0, 11.5, 12.0 us on SMs 8, 3, 5, 1, 9
    assert "5 SMs: their tile loops end at 11.00 us on average, the last at 12.00" in out
    assert "save at most 1.00 us" in out
    assert "SMs ending first, median us: 8 (10.0), 3 (10.5), 5 (11.0), 1 (11.5); last: 3 (10.5), 5 (11.0), 1 (11.5), 9 (12.0)" in out
    assert "the SMs' balance" not in out  # (the summary is for two shapes or more)

    print_timeline({"shapes": {"b4_kv1024": row, "b4_kv8192": row}})
    out = " ".join(capsys.readouterr().out.split())
    assert "the SMs' balance: what moving loop work between SMs could save at most" in out
    assert out.count("│ 14.00 │ 5 │ 11.00 │ 12.00 │ 1.00 │ 7.1% │") == 2
