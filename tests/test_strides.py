"""The generated runners read strided views right: q and the KV tensors as
non-contiguous views (every other element of a wider buffer, tokens and heads
swapped in memory) give exactly the output of the same values laid out densely.
Through Triton's interpreter, one runner of each kind."""

import functools

import pytest
import torch

from generator.gpu.check import prepare, runner_for
from generator.gpu.inputs import make_inputs, uniform_case

from conftest import ROOT

SPEC = ROOT / "tests/specs/cpu_coverage.yaml"


@functools.cache
def prepared():
    return prepare(SPEC, interpret=True)


def every_other(x: torch.Tensor) -> torch.Tensor:
    """The same values as x, as a view whose last dim has stride 2."""
    wide = torch.zeros(*x.shape[:-1], 2 * x.shape[-1], dtype=x.dtype)
    view = wide[..., ::2]
    view.copy_(x)
    return view


def swapped(q: torch.Tensor) -> torch.Tensor:
    """The same values as q, heads outermost in memory (strides (576, T*576, 1))."""
    return q.transpose(0, 1).contiguous().transpose(0, 1)


def strided(data, layout):
    q, kv_data, qo, kvi, config = data
    kv8, scale = kv_data["fp8"]
    kv_data = {**kv_data, "bf16": every_other(kv_data["bf16"]), "fp8": (every_other(kv8), scale)}
    q = every_other(q) if layout == "every_other" else swapped(q)
    if layout == "swapped":
        kv_data = data[1]
    return q, kv_data, qo, kvi, config


def shape_cases():
    spec, plan, _, _ = prepared()
    wanted = {"torch_bmm", "triton_single", "triton_split"}
    cases, kinds = [], set()
    for shape, runner in zip(spec.shapes, plan.runners):
        kind = (runner.backend, runner.kv_format, getattr(runner.detail, "merge", None))
        if runner.backend in wanted and kind not in kinds:
            kinds.add(kind)
            cases.append(uniform_case(runner.tag, shape.batch, shape.kv_len, shape.q_seq_len,
                                      shape.num_heads))
    # An unlisted key: the fallback.
    cases.append(uniform_case("fallback", 3, 77))
    return cases


CASES = shape_cases()


@pytest.mark.parametrize("layout", ["every_other", "swapped"])
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_strided_inputs_give_the_dense_result(case, layout):
    spec, plan, module, _ = prepared()
    dense = make_inputs(case, 3, "cpu", spec.target.fp8_format)
    expected = module.custom_kernel(dense).clone()
    view = strided(dense, layout)
    assert not view[0].is_contiguous()
    got = module.custom_kernel(view)
    assert torch.equal(got, expected), (runner_for(plan, case).name, layout)
