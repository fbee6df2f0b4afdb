"""The resource report: kernels compiled ahead of time for sm90 and gfx950 with
the installed Triton (3.9 in the test extras; `make test` then runs `gen
resources --check` with the specs' 3.6.0), the CI rules (spills, serialised
wgmmas) and their waivers, determinism, staleness, and the committed reports."""

import json
import os
from pathlib import Path
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.core import registry
from generator.core.spec import load_spec
from generator.resources.aot import main_loop, serialized_wgmma_warnings
from generator.resources.report import RULES, source_hash, to_json, unused_allowances, violations

from conftest import ROOT

SMALL = ROOT / "tests/specs/resources_small.yaml"
ROCM = """target: {name: small_rocm, platform: rocm, fp8_format: e4m3fn, aiter: true,
         triton_options: {waves_per_eu: 1, matrix_instr_nonkdim: 16}}
shapes:
  - {batch: 32, kv_len: 1024, backend: triton_single, block_n: 16}
  - {batch: 64, kv_len: 8192, backend: aiter, splits: 4}
fallback: {backend: triton_split, splits: 2, block_n: 16}
"""


def gen(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """A scratch project with the small spec (cuda) and a rocm one, reports written."""
    root = tmp_path_factory.mktemp("res")
    (root / "specs").mkdir()
    shutil.copy(SMALL, root / "specs/small.yaml")
    (root / "specs/small_rocm.yaml").write_text(ROCM)
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        assert gen("build").exit_code == 0
        result = gen("resources", "--write", "--json", "all.json")
    return root, result


def report(root, target):
    return json.loads((root / f"build/{target}/resources.json").read_text())


def test_keyed_spill_fails_and_names_the_entry(project):
    _, result = project
    assert result.exit_code == 1
    assert "mla_b32_kv1024_single (entry b32_kv1024) spills" in result.output
    assert "`allow_spills: <reason>`" in result.output
    assert "names no triton_version" in result.output


def test_sm90_report_has_every_figure(project):
    root, _ = project
    rep = report(root, "small")
    assert (rep["arch"], rep["compile_target"], rep["target"]) == ("sm90", "cuda:90:32", "small")
    assert rep["submission"] == "build/small/submission.py"
    assert rep["submission_sha256"] == source_hash(
        (root / "build/small/submission.py").read_text())
    # torch_bmm launches no kernel; the keyed kernel, then the fallback's two
    assert [k["kernel"] for k in rep["kernels"]] == [
        "mla_b32_kv1024_single", "mla_fallback_split2_stage1", "mla_fallback_split2_stage2"]
    single = rep["kernels"][0]
    assert single["key"] == [32, 1024, 1, 16] and single["keyed"] is True
    assert single["grid"] == [32, 1, 1]
    assert single["launch"] == {"num_stages": 3, "num_warps": 4}
    assert single["registers"] == 255 and single["spills"] is True
    assert single["spilled_registers"] == single["local_bytes"] // 4 > 0
    assert single["shared_bytes"] > 64 * 1024
    assert single["occupancy"]["blocks_per_sm"] == 2
    assert set(single["occupancy"]) == {"blocks_per_sm", "warps_per_sm", "fraction", "limiter"}
    assert any(op.startswith("HMMA") for op in single["mma"])
    assert single["wgmma_serialized"] is False and single["wgmma_serialized_warnings"] == []
    fallback = rep["kernels"][1]
    assert fallback["keyed"] is False and fallback["key"] is None
    assert fallback["launch"]["NUM_HEADS"] == 16  # a launch-time constexpr of the fallback


def test_gfx950_report_has_every_figure(project):
    root, _ = project
    rep = report(root, "small_rocm")
    assert (rep["arch"], rep["compile_target"]) == ("gfx950", "hip:gfx950:64")
    # the aiter runner is called against a stub and launches nothing
    assert [k["runner"] for k in rep["kernels"]] == ["run_b32_kv1024", "run_fallback",
                                                     "run_fallback"]
    single = rep["kernels"][0]
    assert single["launch"] == {"matrix_instr_nonkdim": 16, "num_stages": 2, "num_warps": 4,
                                "waves_per_eu": 1}
    for field in ("vgprs", "agprs", "sgprs", "registers", "spilled_registers", "sgpr_spills",
                  "scratch_bytes", "shared_bytes"):
        assert isinstance(single[field], int), field
    assert single["registers"] >= single["vgprs"]
    assert "wgmma_serialized" not in single  # an sm90 figure
    assert set(single["occupancy"]) == {"workgroups_per_cu", "waves_per_simd", "fraction",
                                        "limiter"}
    assert any(op.startswith("v_mfma") for op in single["mma"])


def test_json_option_holds_every_target(project):
    root, _ = project
    reports = json.loads((root / "all.json").read_text())
    assert [r["target"] for r in reports] == ["small", "small_rocm"]


def test_report_is_deterministic_and_has_no_absolute_path(project):
    """Sorted keys, no times, no absolute paths (ptxas's temporary file names
    are cut from its warnings); the same report serialises to the same bytes."""
    root, _ = project
    text = (root / "build/small/resources.json").read_text()
    assert str(root) not in text and "/tmp" not in text
    assert to_json(json.loads(text)) == text
    assert list(json.loads(text)) == sorted(json.loads(text))
    from_json_option = json.loads((root / "all.json").read_text())[0]
    assert to_json(from_json_option) == text


def test_allow_spills_lets_the_check_pass(project):
    root, _ = project
    spec = root / "specs/small.yaml"
    spec.write_text(spec.read_text().replace(
        "backend: triton_single}", 'backend: triton_single, allow_spills: "a test"}'))
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        assert gen("build", "--spec", "specs/small.yaml").exit_code == 0
        # the submission changed (its header hashes the spec): the report is stale
        stale = gen("build", "--check", "--spec", "specs/small.yaml")
        assert stale.exit_code == 1 and "stale: build/small/resources.json" in stale.output
        result = gen("resources", "--write", "--spec", "specs/small.yaml", "--jobs", "1")
        assert result.exit_code == 0, result.output
        assert "allow_spills for b32_kv1024: a test" in result.output
        assert gen("build", "--check", "--spec", "specs/small.yaml").exit_code == 0
        assert gen("resources", "--check", "--spec", "specs/small.yaml").exit_code == 0
    assert report(root, "small")["kernels"][0]["allow_spills"] == "a test"


def _row(kernel, key, **kw):
    row = {"kernel": kernel, "key": key, "keyed": key is not None, "spills": False,
           "spilled_registers": 0, "wgmma_serialized": False, "wgmma_serialized_warnings": []}
    row.update(kw)
    return row


SERIAL = {"wgmma_serialized": True, "wgmma_serialized_warnings": ["(C7514) ... serialized"]}


def test_violations_skip_the_fallback_and_waived_entries():
    rows = [
        _row("a", [1, 2, 1, 16], spills=True, spilled_registers=3),
        _row("b", [1, 4, 1, 16], spills=True, spilled_registers=3, allow_spills="why"),
        _row("c", None, spills=True, spilled_registers=3, **SERIAL),
        _row("d", [1, 8, 1, 16]),
        _row("e", [1, 16, 1, 16], **SERIAL),
        _row("f", [1, 32, 1, 16], allow_serialized_wgmma="measured", **SERIAL),
        # one waiver does not cover the other rule
        _row("g", [1, 64, 1, 16], allow_spills="why", **SERIAL),
    ]
    out = violations({"spec": "s.yaml", "arch": "sm90", "triton": "3.6.0", "kernels": rows})
    assert len(out) == 3, out
    assert out[0].startswith("s.yaml: a (entry b1_kv2) spills 3 registers on sm90")
    assert out[1].startswith("s.yaml: e (entry b1_kv16) has its wgmma.mma_async instructions "
                             "serialised by ptxas on sm90 ((C7514) ... serialized)")
    assert "`allow_serialized_wgmma: <reason>`" in out[1]
    assert out[2].startswith("s.yaml: g (entry b1_kv64) has its wgmma")


def test_a_kernel_that_fits_no_sm_fails_the_report_even_the_fallbacks():
    none = {"blocks_per_sm": 0, "warps_per_sm": 0, "fraction": 0.0, "limiter": "shared"}
    rows = [
        _row("big", [1, 2, 1, 16], shared_bytes=3926016, static_shared_bytes=0, registers=255,
             num_warps=4, occupancy=none, allow_spills="waivers do not cover it"),
        _row("fb", None, shared_bytes=0, registers=512, num_warps=4,
             occupancy={"workgroups_per_cu": 0, "waves_per_simd": 0, "fraction": 0.0,
                        "limiter": "registers"}),
        _row("ok", [1, 4, 1, 16], occupancy={"blocks_per_sm": 1, "limiter": "shared"}),
    ]
    out = violations({"spec": "s.yaml", "arch": "sm90", "triton": "3.6.0", "kernels": rows[:1]})
    out += violations({"spec": "s.yaml", "arch": "gfx950", "triton": "3.6.0", "kernels": rows[1:]})
    assert out == [
        "s.yaml: big (entry b1_kv2) fits no SM of sm90 (3926016 bytes of shared memory) under "
        "triton 3.6.0: change its tiles (block_n, num_stages)",
        "s.yaml: fb (entry fallback) fits no CU of gfx950 (512 registers a thread) under "
        "triton 3.6.0: change its tiles (block_n, num_stages)"]


def test_a_compiler_process_that_dies_is_a_clear_failure():
    from generator.errors import GenError
    from generator.resources.aot import compile_build

    with pytest.raises(GenError, match="a compiler process died while compiling for sm90"):
        compile_build("import os\nos._exit(3)\n", "e4m3fn", "sm90", 1)


def test_unused_waivers_are_noted():
    rows = [_row("a", [1, 2, 1, 16], allow_spills="x", allow_serialized_wgmma="y")]
    out = unused_allowances({"spec": "s.yaml", "arch": "sm90", "kernels": rows})
    assert [line.split(" has ")[1].split(" but")[0] for line in out] == [
        "allow_spills", "allow_serialized_wgmma"]


def test_every_waiver_has_a_rule_and_every_compiled_backend_offers_them():
    assert [r.waiver for r in RULES] == list(registry.WAIVERS)
    for backend in registry.BACKENDS.values():
        compiled = backend.template in ("backends/triton.py.j2", "backends/gluon.py.j2")
        assert all((w in backend.fields) == compiled for w in registry.WAIVERS), backend.name


def test_ptxas_serialisation_warnings_are_read_without_paths():
    log = ("ptxas info    : (C7514) Potential Performance Loss: wgmma.mma_async instructions "
           "are serialized due to non wgmma instructions reading accumulator registers of a "
           "wgmma between start and end of the pipeline stage in the function 'k'\n"
           "ptxas /tmp/tmpab12/kernel.ptx, line 812; warning : Potential Performance Loss: "
           "wgmma.mma_async instructions are serialized due to the presence of Extern calls "
           "in the function 'k'. (C7515)\n"
           "ptxas info    : Used 95 registers\n")
    out = serialized_wgmma_warnings(log)
    assert len(out) == 2 and not any("/tmp" in w or "ptxas" in w for w in out)
    assert out[0].startswith("(C7514) Potential Performance Loss")
    assert out[1].endswith("(C7515)")
    assert serialized_wgmma_warnings("ptxas info    : Used 95 registers\n") == []


SASS_WITH_LOOP = """
        /*0000*/                   MOV R1, c[0x0][0x28] ;
        /*0010*/                   ISETP.GE.AND P0, PT, R2, 0x1, PT ;
        /*0020*/               @P0 BRA 0x70 ;
        /*0030*/                   LDS R4, [R3] ;
        /*0040*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
        /*0050*/                   IADD3 R2, R2, -0x1, RZ ;
        /*0060*/               @P1 BRA 0x30 ;
        /*0070*/                   EXIT ;
        /*0080*/                   SYNCS.PHASECHK.TRANS64 P0, [R5], R6 ;
        /*0090*/                   BRA 0x0 ;
"""


def test_main_loop_is_the_longest_backward_branch_before_the_exit():
    """The loop 0x30-0x60 (4 instructions, 1 barrier); the jump back from the
    out-of-line block after EXIT (an mbarrier retry) is not a loop."""
    assert main_loop(SASS_WITH_LOOP) == {
        "instructions": 4, "barriers": 1,
        "opcodes": [["BAR", 1], ["BRA", 1], ["IADD3", 1], ["LDS", 1]]}
    assert main_loop(SASS_WITH_LOOP.replace("@P1 BRA 0x30", "@P1 BRA 0x70")) is None


def test_other_triton_version_is_refused_before_compiling(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "specs").mkdir()
    text = SMALL.read_text().replace("fp8_format: e4m3fn}",
                                     'fp8_format: e4m3fn, triton_version: "0.0.1"}')
    (tmp_path / "specs/small.yaml").write_text(text)
    result = CliRunner().invoke(main, ["resources"])
    assert result.exit_code == 2
    assert "runs triton 0.0.1, this environment has" in result.output + str(result.stderr_bytes)
    refused = CliRunner().invoke(main, ["resources", "--any-triton", "--write"])
    assert refused.exit_code == 2


# ---------------------------------------------------------------------------
# Kernels compiled outside the interpreter (subprocesses without TRITON_INTERPRET)
# ---------------------------------------------------------------------------


def _probe(code: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "tests")])
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout.strip()


SERIALIZED_PROBE = """
import torch
from data.wgmma_imprecise import fp8_dot_imprecise
from generator.resources.aot import Launch, compile_figures
from generator.core.occupancy import ARCHS
a = torch.empty(64 * 512, dtype=torch.float8_e4m3fn, device="meta")
b = torch.empty(512 * 64, dtype=torch.float8_e4m3fn, device="meta")
c = torch.empty(64 * 64, dtype=torch.float32, device="meta")
for imprecise in (32, None):
    kw = {"K_TILES": 4, "IMPRECISE": imprecise, "num_warps": 4, "num_stages": 2}
    f = compile_figures(Launch(fp8_dot_imprecise, "run_x", None, (1,), (a, b, c), kw),
                        ARCHS["sm90"])
    assert any(op.startswith("QGMMA") for op in f["mma"]), f
    print(imprecise, f["wgmma_serialized"], f["wgmma_serialized_warnings"])
"""


def test_serialised_wgmmas_are_detected_from_ptxas():
    """A real kernel that ptxas serialises (C7514), and the same kernel without
    the imprecise accumulation, which it does not."""
    lines = _probe(SERIALIZED_PROBE).splitlines()
    assert lines[0].startswith("32 True [") and lines[0].count("(C7514)") == 1
    assert "Potential Performance Loss: wgmma.mma_async instructions are serialized" in lines[0]
    assert lines[1] == "None False []"


TRITON36 = Path(os.environ.get("GEN_TRITON36_PYTHON", ROOT / ".venv-triton36/bin/python"))


@pytest.fixture(scope="module")
def gluon_report(tmp_path_factory):
    """tests/specs/resources_gluon.yaml through `gen resources --write` with
    triton 3.6.0 (the venv `make test` sets up before running the suite)."""
    if not TRITON36.is_file():
        pytest.skip(f"no triton 3.6 venv at {TRITON36} (`make test` creates it)")
    root = tmp_path_factory.mktemp("gluon")
    (root / "specs").mkdir()
    shutil.copy(ROOT / "tests/specs/resources_gluon.yaml", root / "specs/small_gluon.yaml")
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    env["PYTHONPATH"] = str(ROOT)
    for args in (["build"], ["resources", "--write", "--jobs", "2"]):
        proc = subprocess.run([str(TRITON36), "-m", "generator.cli", *args], cwd=root, env=env,
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    return json.loads((root / "build/small_gluon/resources.json").read_text())


def test_gluon_kernels_are_compiled_and_reported(gluon_report):
    """The gluon runner's TensorDescriptor over a meta tensor specialises like
    the real one; the kernel issues fp8 wgmmas (QGMMA) only, ptxas keeps them
    pipelined, nothing spills; l2_policy gives every TMA load of the attention
    kernel an L2 cache policy (ptxas took the rewritten PTX)."""
    assert gluon_report["triton"] == "3.6.0"
    attend = gluon_report["kernels"][0]
    assert attend["kernel"] == "mla_b4_kv8192_gluon_split8" and attend["runner"] == "run_b4_kv8192"
    assert attend["grid"] == [4, 8] and attend["launch"]["launch_cooperative_grid"] is True
    assert {op.split(".")[0] for op in attend["mma"] if ".F32" in op} == {"QGMMA"}
    assert attend["spills"] is False and attend["wgmma_serialized"] is False
    # the plan's two-tile ring + Q + two P and their flags, and the barriers
    assert 85120 <= attend["shared_bytes"] < 85120 + 1024
    assert attend["occupancy"]["blocks_per_sm"] == 2
    assert attend["tma_loads"]["loads"] > 0 and attend["tma_loads"]["l2_hinted"] == attend["tma_loads"]["loads"]
    # the KV loop: hundreds of instructions a tile, barriers among them
    loop = attend["main_loop"]
    assert 200 < loop["instructions"] < 5000 and 0 < loop["barriers"] < loop["instructions"]


GLUON_PROBE = """
import torch
from data.gluon_copy import gluon_copy
from generator.resources.aot import Launch, compile_figures
from generator.core.occupancy import ARCHS
a = torch.empty(4096, dtype=torch.float16, device="meta")
launch = Launch(gluon_copy, "run_x", None, (32,), (a, torch.empty_like(a), 4096),
                {"BLOCK": 128, "num_warps": 4})
figures = compile_figures(launch, ARCHS["sm90"])
assert figures["registers"] > 0 and figures["spilled_registers"] == 0, figures
assert figures["wgmma_serialized"] is False and figures["mma"] == {}, figures
print("ok")
"""


def test_a_plain_gluon_kernel_compiles_through_the_same_path():
    """With the test extras' triton (the committed template needs 3.6's Gluon API)."""
    assert _probe(GLUON_PROBE) == "ok"


# ---------------------------------------------------------------------------
# The committed reports (no compiling: `make test`'s `gen resources --check` does that)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("target", ["h200", "mi355x"])
def test_committed_report_describes_the_committed_build(target):
    rep = json.loads((ROOT / f"build/{target}/resources.json").read_text())
    source = (ROOT / f"build/{target}/submission.py").read_text()
    assert rep["submission_sha256"] == source_hash(source)
    assert rep["triton"] == rep["spec_triton"] == "3.6.0"
    assert violations(rep) == []
    assert unused_allowances(rep) == []


def test_committed_h200_gluon_kernels_neither_spill_nor_serialise():
    """Every keyed H200 runner is gluon under triton 3.6.0: no spill, no
    serialised wgmma, no waiver; the attention kernels issue fp8 wgmmas alone
    (QGMMA: scores and the PV product). The one-tile-ring kernel (b4 kv1024,
    half of V's output dims a program) takes 168 registers and 48,520 bytes
    of shared memory, three programs an SM; the two-tile rings fit two an SM,
    consumers 2's two rings one."""
    rep = json.loads((ROOT / "build/h200/resources.json").read_text())
    keyed = [k for k in rep["kernels"] if k["keyed"]]
    assert len(keyed) == 8  # 8 attention kernels: the split shapes merge behind a barrier
    for row in keyed:
        assert "_gluon" in row["kernel"]
        assert not row["spills"] and not row["wgmma_serialized"], row["kernel"]
        assert "allow_spills" not in row and "allow_serialized_wgmma" not in row
        assert {op.split(".")[0] for op in row["mma"] if ".F32" in op} == {"QGMMA"}, row["kernel"]
    rows = {k["kernel"]: k for k in rep["kernels"]}
    one_tile = rows["mla_b4_kv1024_gluon_split16"]
    assert one_tile["registers"] == 168 and one_tile["shared_bytes"] == 48520
    assert one_tile["occupancy"]["blocks_per_sm"] == 3
    big = rows["mla_b256_kv8192_gluon"]
    assert big["shared_bytes"] == 85392 and big["occupancy"]["blocks_per_sm"] == 2
    assert rows["mla_b64_kv8192_gluon_split2"]["occupancy"]["blocks_per_sm"] == 1
    # l2_policy: every TMA load of the entries that set it carries the hint, no other's
    hinted = {s.key for s in load_spec(ROOT / "specs/h200.yaml").shapes if s.l2_policy not in (None, "none")}
    assert hinted
    for row in keyed:
        tma = row["tma_loads"]
        assert tma["loads"] > 0 and tma["l2_hinted"] == (tma["loads"] if tuple(row["key"]) in hinted else 0)


def test_committed_mi355x_report_matches_the_cpu_compile():
    """gfx950 under triton 3.6.0: the spec's tiles (block_n 16, 4 warps, 2
    stages, waves_per_eu 2) take 230-232 VGPRs and no AGPRs, 17 KiB of LDS,
    two waves per SIMD, and spill nothing (the seed's block_n 64 took 256 +
    256 and spilled 11, one wave per SIMD: PERF.md)."""
    rep = json.loads((ROOT / "build/mi355x/resources.json").read_text())
    attention = [k for k in rep["kernels"] if k["mma"]]
    assert len(attention) == 4
    for row in attention:
        assert row["agprs"] == 0 and 230 <= row["vgprs"] <= 232
        assert row["shared_bytes"] == 17 * 1024
        assert row["occupancy"]["waves_per_simd"] == 2
        assert not row["spills"] and row["spilled_registers"] == 0
        assert "allow_spills" not in row


def test_gen_build_imports_neither_torch_nor_triton(tmp_path):
    """`gen build` (and its staleness check of resources.json) stays torch-free."""
    code = ("import sys; from generator.cli import main; sys.argv = ['gen', 'build', '--check']\n"
            "try:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
            "assert 'torch' not in sys.modules and 'triton' not in sys.modules, "
            "sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'triton'))\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr[-2000:]
