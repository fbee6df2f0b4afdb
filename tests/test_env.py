"""A spec's environment (target.env) is set by the generated file when it is
imported, in the leaderboard's process and in gen's own: only a short list of
runtime knobs per platform, with short plain values, and gen restores its
environment after every import, so that no spec's variables reach gen or the
next spec it imports."""

import json
import os

import pytest

from generator.core.registry import ENV_NAMES
from generator.core.spec import parse_spec
from generator.errors import SpecError
from generator.gpu.harness import import_submission, isolated_environment


def spec_text(env, platform="rocm") -> str:
    return json.dumps({
        "target": {"name": "t", "platform": platform, "fp8_format": "e4m3fn", "env": env},
        "shapes": [{"batch": 2, "kv_len": 64, "backend": "triton_single", "block_n": 16}],
        "fallback": {"backend": "triton_split", "splits": 2, "block_n": 16},
    })


def issues(text: str) -> list[str]:
    with pytest.raises(SpecError) as info:
        parse_spec(text, "s.yaml")
    return [str(i) for i in info.value.issues]


@pytest.mark.parametrize("name", ["LD_PRELOAD", "PYTHONPATH", "TRITON_CACHE_DIR",
                                  "TRITON_PTXAS_PATH", "HOME", "A"])
def test_names_outside_the_platforms_list_are_refused_with_the_list(name):
    (line,) = issues(spec_text({name: "1"}))
    assert f"target.env.{name}: '{name}' is not an environment variable a spec may set" in line
    assert "(allowed: HIP_FORCE_DEV_KERNARG, " in line and line.startswith("s.yaml:1: ")


def test_a_name_of_the_other_platform_is_refused_with_a_did_you_mean():
    (line,) = issues(spec_text({"HIP_FORCE_DEV_KERNARG": "1"}, platform="cuda"))
    assert "on platform 'cuda'" in line and "CUDA_MODULE_LOADING" in line


@pytest.mark.parametrize("value", ["x" * 200_000, "x" * 65, "", "a b", "a\nb", 'a"b', "a\\nb",
                                   "$(touch x)", "\u00e9"])
def test_long_or_unusual_values_are_refused(value):
    (line,) = issues(spec_text({"HIP_FORCE_DEV_KERNARG": value}))
    assert "is not an environment value a spec may set (allowed: 1 to 64 of the characters" in line
    assert len(line) < 400  # a 200 KB value is not echoed whole


@pytest.mark.parametrize("platform", ENV_NAMES)
def test_every_listed_name_takes_a_plain_value(platform):
    spec = parse_spec(spec_text({n: "1" for n in ENV_NAMES[platform]}, platform), "s.yaml")
    assert set(spec.target.env) == set(ENV_NAMES[platform])


def test_a_boolean_key_cannot_pass_as_its_string_twin():
    lines = issues('target: {name: t, platform: rocm, fp8_format: e4m3fn,\n'
                   '         env: {"True": "1", true: "2"}}\n'
                   'shapes: []\n'
                   'fallback: {backend: triton_split, splits: 2, block_n: 16}\n')
    assert any(l.startswith("s.yaml:2: target.env.true: the key true is a boolean to YAML, "
                            'not text (quote it: "true")') for l in lines), lines
    assert any("target.env.True: 'True' is not an environment variable" in l for l in lines), lines


def test_a_number_key_anywhere_is_refused():
    lines = issues("target: {name: t, platform: rocm, fp8_format: e4m3fn, 1: x}\n"
                   "shapes: []\n"
                   "fallback: {backend: triton_split, splits: 2, block_n: 16}\n")
    assert lines == ['s.yaml:1: target.1: the key 1 is an integer to YAML, not text '
                     '(quote it: "1")']


SUBMISSION = """import os
os.environ.setdefault("HIP_FORCE_DEV_KERNARG", "1")
os.environ["GEN_TEST_CHANGED"] = "by the submission"
os.environ.pop("GEN_TEST_REMOVED")
SEEN = dict(os.environ)
"""


def test_importing_a_submission_restores_the_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("HIP_FORCE_DEV_KERNARG", raising=False)
    monkeypatch.setenv("GEN_TEST_CHANGED", "before")
    monkeypatch.setenv("GEN_TEST_REMOVED", "before")
    before = dict(os.environ)
    module = import_submission(SUBMISSION, tmp_path / "a")
    assert module.SEEN["HIP_FORCE_DEV_KERNARG"] == "1"
    assert "GEN_TEST_REMOVED" not in module.SEEN
    assert dict(os.environ) == before
    # the next submission imported in the same process sees none of it
    nxt = import_submission("import os\nSEEN = dict(os.environ)\n", tmp_path / "b")
    assert "HIP_FORCE_DEV_KERNARG" not in nxt.SEEN and nxt.SEEN["GEN_TEST_CHANGED"] == "before"


def test_the_environment_is_restored_when_the_import_fails(tmp_path, monkeypatch):
    monkeypatch.delenv("HIP_FORCE_DEV_KERNARG", raising=False)
    with pytest.raises(ZeroDivisionError):
        import_submission('import os\nos.environ["HIP_FORCE_DEV_KERNARG"] = "1"\n1 / 0\n', tmp_path)
    assert "HIP_FORCE_DEV_KERNARG" not in os.environ


def test_isolated_environment_restores_exactly(monkeypatch):
    monkeypatch.setenv("GEN_TEST_KEPT", "1")
    before = dict(os.environ)
    with isolated_environment():
        os.environ["GEN_TEST_NEW"] = "x"
        os.environ["GEN_TEST_KEPT"] = "2"
    assert dict(os.environ) == before
