"""Every point of a backend's registry search space (the space `gen tune`
searches for an entry of that backend) passes the spec stage, on every
platform the backend runs on, for the leaderboard's shapes and a 32-head one:
a space is a product of axes, so an axis value that some combination refuses
would waste a share of every run (the tuner's dry run found a third of
triton_split's 31,104 points invalid when its merge axis offered gluon's
barrier). Spaces too large to enumerate are sampled (fixed seed)."""

import itertools
import json
import random

import pytest

from generator.core import registry
from generator.core.spec import parse_spec
from generator.errors import SpecError

# (num_heads, kv_len): the benchmark's lengths, and 32 heads (a later variant of the task).
SHAPES = [(16, 1024), (16, 8192), (32, 1024), (32, 8192)]
SAMPLE = 250
TARGETS = {
    "cuda": {"name": "t", "platform": "cuda", "fp8_format": "e4m3fn"},
    "rocm": {"name": "t", "platform": "rocm", "fp8_format": "e4m3fn", "aiter": True},
}

CASES = [(name, platform) for name, b in registry.BACKENDS.items() for platform in b.platforms
         if b.search_space or b.platform_space.get(platform)]

def points(axes: dict[str, tuple]) -> list[dict]:
    names = list(axes)
    size = 1
    for values in axes.values():
        size *= len(values)
    if size <= SAMPLE:
        return [dict(zip(names, p)) for p in itertools.product(*axes.values())]
    rng = random.Random(0)
    return [{n: rng.choice(axes[n]) for n in names} for _ in range(SAMPLE)]


def base_entry(backend) -> dict:
    """The least entry of the backend: its required fields (splits: 4 where
    its space does not vary it)."""
    return {"backend": backend.name,
            **{f: backend.search_space.get(f, (4,))[0] for f in backend.required}}


def usable(backend, heads: int) -> bool:
    return heads % backend.heads_multiple == 0 and heads <= (backend.max_num_heads or heads)


@pytest.mark.parametrize("name, platform", CASES)
def test_every_point_of_the_registry_space_passes_the_spec_stage(name, platform):
    backend = registry.BACKENDS[name]
    shapes, tried = [], 0
    for heads, kv_len in SHAPES:
        if not usable(backend, heads):
            continue
        for point in points(backend.space_for(platform, heads, kv_len)):
            tried += 1
            shapes.append({"batch": len(shapes) + 1, "kv_len": kv_len, "num_heads": heads,
                           **base_entry(backend), **point})
    assert tried
    text = json.dumps({"target": TARGETS[platform], "shapes": shapes,
                       "fallback": {"backend": "triton_split", "splits": 2, "block_n": 16}})
    try:
        parse_spec(text, "space.yaml")
    except SpecError as exc:
        refused = {i.path.split(".")[0] for i in exc.issues}
        first = exc.issues[0]
        pytest.fail(f"{len(refused)} of {tried} points refused, e.g. {first.path}: {first.message}")


def test_the_rocm_spaces_add_the_hip_launch_options():
    for name in ("triton_single", "triton_split"):
        rocm = registry.BACKENDS[name].space_for("rocm", 16, 8192)
        cuda = registry.BACKENDS[name].space_for("cuda", 16, 8192)
        assert {"waves_per_eu", "matrix_instr_nonkdim"} <= set(rocm) - set(cuda)
        assert not set(cuda) & set(registry.HIP_OPTIONS)


def test_aiter_space_is_trimmed_to_what_each_shape_runs():
    aiter = registry.BACKENDS["aiter"]
    assert aiter.space_for("rocm", 16, 1024)["splits"] == (1, 2, 4, 8)
    assert aiter.space_for("rocm", 16, 8192)["splits"] == (1, 2, 4, 8, 16, 32)
    # 32 heads: aiter's non-persistent fp8 kernels take 16 heads only
    assert aiter.space_for("rocm", 32, 1024)["persistent"] == (True,)
    assert aiter.space_for("rocm", 32, 1024)["splits"] == (1, 2, 4, 8, 16, 32)


def test_a_hip_option_equal_to_the_targets_is_left_unset_in_a_candidate():
    """The target's triton_options are what an entry inherits: a candidate
    setting the same value is the current kernel again, not a new one."""
    from conftest import ROOT
    from generator.core.spec import load_spec
    from generator.tune.space import candidates, space_for

    spec = load_spec(ROOT / "specs/mi355x.yaml")
    index, shape = next((i, s) for i, s in enumerate(spec.shapes) if s.backend == "triton_single")
    space = space_for(shape, index, "x", "rocm", spec.target.triton_options)
    got = list(candidates(shape, space, "rocm"))
    assert len(got) == space.size  # every point once: its current values are all on the axes
    inherited = spec.target.triton_options["waves_per_eu"]
    assert not any(dict(c.fields).get("waves_per_eu") == inherited for c in got)
