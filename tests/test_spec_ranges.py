"""Settings that cannot run never pass the spec stage: a range for every
numeric field (with the range in the message), HIP launch options per entry
(rocm only, overriding the target's), q_absmax bounded, shared memory against
the target architecture for every backend that launches kernels."""

import dataclasses
import json
import typing

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.core import registry
from generator.core.planner import build_plan
from generator.core.spec import EntrySpec, TargetSpec, parse_spec
from generator.core.spec_rules import KEY_RANGES, RANGES
from generator.errors import SpecError


def spec_text(target=None, shape=None, fallback=None, platform="rocm") -> str:
    return json.dumps({
        "target": {"name": "t", "platform": platform, "fp8_format": "e4m3fn", **(target or {})},
        "shapes": [{"batch": 2, "kv_len": 64, "backend": "triton_single", "block_n": 16,
                    **(shape or {})}],
        "fallback": {"backend": "triton_split", "splits": 2, "block_n": 16, **(fallback or {})},
    })


def issues(text: str) -> list[str]:
    with pytest.raises(SpecError) as info:
        parse_spec(text, "s.yaml")
    return [str(i) for i in info.value.issues]


HIP_BAD = {"waves_per_eu": (-5, "an integer from 0 (the compiler's choice) to 8"),
           "kpack": (0, "one of 1, 2"),
           "matrix_instr_nonkdim": (7, "one of 0 (the compiler's choice), 16, 32")}


@pytest.mark.parametrize("field", HIP_BAD)
def test_hip_options_out_of_range_are_refused_on_the_target(field):
    value, allowed = HIP_BAD[field]
    assert issues(spec_text(target={"triton_options": {field: value}})) == [
        f"s.yaml:1: target.triton_options.{field}: {value} is not {allowed}"]


@pytest.mark.parametrize("field", HIP_BAD)
def test_hip_options_out_of_range_are_refused_on_an_entry(field):
    value, allowed = HIP_BAD[field]
    assert issues(spec_text(shape={field: value})) == [
        f"s.yaml:1: shapes[0].{field}: {value} is not {allowed}"]


def test_hip_options_of_an_entry_are_refused_off_rocm():
    (line,) = issues(spec_text(shape={"waves_per_eu": 2}, platform="cuda"))
    assert line == ("s.yaml:1: shapes[0].waves_per_eu: applies only on platform 'rocm' "
                    "(a HIP launch option), not on 'cuda'")


def test_hip_options_do_not_apply_to_other_backends():
    text = spec_text(shape={"backend": "torch_bmm", "kpack": 2})
    text = text.replace('"block_n": 16, "kpack"', '"kpack"')
    (line,) = issues(text)
    assert "shapes[0].kpack: does not apply to backend 'torch_bmm'" in line


def test_an_entrys_hip_options_override_the_targets_and_reach_its_launches():
    spec = parse_spec(spec_text(target={"triton_options": {"waves_per_eu": 2, "kpack": 2}},
                                shape={"waves_per_eu": 1, "matrix_instr_nonkdim": 32}), "s.yaml")
    keyed, fallback = build_plan(spec).runners[0], build_plan(spec).fallback
    assert keyed.launches[0].options == (("num_warps", 4), ("num_stages", 2), ("kpack", 2),
                                         ("matrix_instr_nonkdim", 32), ("waves_per_eu", 1))
    assert [o for o in fallback.launches[0].options if o[0] in registry.HIP_OPTIONS] == [
        ("kpack", 2), ("waves_per_eu", 2)]


def test_hip_options_are_emitted_only_for_rocm():
    # gen check runs a rocm spec's Triton kernels on an NVIDIA GPU with the
    # target switched to cuda (gpu/check.py localize): no HIP option may follow.
    spec = parse_spec(spec_text(target={"triton_options": {"kpack": 2}},
                                shape={"waves_per_eu": 1}), "s.yaml")
    cuda = dataclasses.replace(spec, target=spec.target.model_copy(
        update={"platform": "cuda", "triton_options": {}}))
    for runner in build_plan(cuda).all_runners:
        for launch in runner.launches:
            assert not {k for k, _ in launch.options} & set(registry.HIP_OPTIONS)


@pytest.mark.parametrize("value", [5e-324, 0.0, -1.0, 0.06, 1025.0, float("nan"), float("inf")])
def test_q_absmax_outside_its_range_is_refused(value):
    text = spec_text(shape={"q_mode": "fp8_static", "q_absmax": value})
    text = text.replace("NaN", ".nan").replace("Infinity", ".inf")
    (line,) = issues(text)
    assert "shapes[0].q_absmax:" in line and "is not a number from 0.0625 to 1024" in line


@pytest.mark.parametrize("value", [0.0625, 6.0, 1024])
def test_q_absmax_inside_its_range_gives_a_normal_scale(value):
    spec = parse_spec(spec_text(shape={"q_mode": "fp8_static", "q_absmax": value}), "s.yaml")
    scale = build_plan(spec).runners[0].q_scale
    assert scale == value / 448.0 and 2.0 ** -126 < scale < 2.0 ** 127


def test_a_tile_needing_megabytes_of_shared_memory_is_refused_on_both_platforms():
    big = {"block_n": 256, "num_stages": 8, "kv_format": "bf16"}
    cuda = issues(spec_text(shape=big, platform="cuda"))
    assert cuda == ["s.yaml:1: shapes[0].num_stages: 8 stages of block_n 256 bf16 KV tiles take "
                    "at least 2064384 bytes of shared memory, more than the 232448 a program may "
                    "have on sm90 (lower num_stages or block_n)"]
    (rocm,) = issues(spec_text(shape=big))
    assert "more than the 163840 a program may have on gfx950" in rocm


def test_shared_memory_is_judged_for_the_targets_architecture_and_the_fallback():
    tile = {"block_n": 64, "num_stages": 3}
    parse_spec(spec_text(fallback=tile), "s.yaml")  # 73728 bytes at least: fits gfx950
    (line,) = issues(spec_text(target={"arch": "gfx942"}, fallback=tile))
    assert line.startswith("s.yaml:1: fallback.num_stages: 3 stages of block_n 64 fp8 KV tiles "
                           "take at least 73728 bytes") and "65536 a program may have on gfx942" in line


def _numeric(annotation) -> bool:
    return any(t in (int, float) for t in typing.get_args(annotation) or (annotation,))


def test_every_numeric_field_has_a_range():
    """Each int or float an entry or a target's triton_options may set is
    bounded: by the spec stage's RANGES, or by the choices of every backend
    that takes it; the shape keys by KEY_RANGES."""
    keys = set(KEY_RANGES)
    for name, field in EntrySpec.model_fields.items():
        if not _numeric(field.annotation) or name in keys:
            continue
        owners = [b for b in registry.BACKENDS.values() if name in b.fields]
        assert owners, name
        assert name in RANGES or all(name in b.choices for b in owners), name
    assert set(registry.HIP_OPTIONS) <= set(RANGES)
    assert TargetSpec.model_fields["triton_options"].annotation == dict[str, int]


def test_gen_resources_refuses_a_bad_hip_option_before_compiling(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.yaml").write_text(spec_text(target={"triton_options": {"waves_per_eu": -5}}))
    result = CliRunner().invoke(main, ["resources", "--spec", "s.yaml"])
    assert result.exit_code == 2, result.output
    assert "target.triton_options.waves_per_eu: -5 is not an integer from 0" in result.output
