"""The generated runners refuse inputs they cannot compute, in one clear
ValueError, before any launch: shapes and dtypes on the host for every runner
(no device sync: the keyed runners are timed), the indptrs' values on the host
for the fallback only; and the Triton kernels keep every access inside q, the
KV, the partials and the output whatever the indptrs hold. The fallback's
buffers are bounded. Through Triton's interpreter on a miniature build."""

import ast
import functools

import pytest
import torch

from generator.core.planner import build_plan
from generator.core.render import render
from generator.core.spec import load_spec
from generator.gpu.check import prepare
from generator.gpu.inputs import Case, make_inputs, uniform_case

from conftest import ROOT, SPECS

MUTANTS = ROOT / "tests/specs/mutants.yaml"  # a keyed triton_split shape, a split fallback
COVERAGE = ROOT / "tests/specs/cpu_coverage.yaml"  # torch_bmm among others


@functools.cache
def built(path=MUTANTS):
    spec, plan, module, _ = prepare(path, interpret=True)
    return spec, plan, module


def keyed_inputs(seed=1):
    spec, plan, module = built()
    shape = spec.shapes[0]
    case = uniform_case("k", shape.batch, shape.kv_len)
    return plan.runners[0], module, make_inputs(case, seed, "cpu")


def refused(fn, data):
    """The ValueError's text when fn (a runner, or custom_kernel, which takes the
    tuple) is called on data."""
    with pytest.raises(ValueError) as info:
        fn(data) if fn.__name__ == "custom_kernel" else fn(*data)
    return str(info.value)


# ---------------------------------------------------------------------------
# Shapes and dtypes, checked on the host
# ---------------------------------------------------------------------------


def test_a_keyed_runner_refuses_q_with_head_dim_512():
    runner, module, (q, kv_data, qo, kvi, config) = keyed_inputs()
    message = refused(getattr(module, runner.name), (q[..., :512].contiguous(), kv_data, qo, kvi, config))
    batch = runner.key[0]
    assert message == (f"{runner.name}: q: expected shape ({batch}, 16, 576) (batch_size {batch} x "
                       f"q_seq_len 1 query rows) torch.bfloat16, got shape ({batch}, 16, 512) "
                       "torch.bfloat16")


def test_a_keyed_runner_refuses_kv_data_without_its_copy():
    runner, module, (q, kv_data, qo, kvi, config) = keyed_inputs()
    message = refused(module.custom_kernel, (q, {"bf16": kv_data["bf16"]}, qo, kvi, config))
    assert message == (f"{runner.name}: kv_data: expected a dict with a 'fp8' entry (the KV copy "
                       "this runner reads), got ['bf16']")


def test_a_keyed_runner_refuses_more_query_rows_than_its_q_seq_len():
    """config says q_seq_len 1 (the key) but q and qo_indptr hold 2 tokens a batch element."""
    runner, module, (q, kv_data, qo, kvi, config) = keyed_inputs()
    batch = runner.key[0]
    q2 = torch.cat([q, q]).contiguous()
    message = refused(module.custom_kernel, (q2, kv_data, qo * 2, kvi, config))
    assert f"q: expected shape ({batch}, 16, 576) (batch_size {batch} x q_seq_len 1" in message
    assert f"got shape ({2 * batch}, 16, 576)" in message


@pytest.mark.parametrize("which", ["qo_indptr", "kv_indptr"])
def test_int64_or_misshapen_indptrs_are_refused(which):
    runner, module, (q, kv_data, qo, kvi, config) = keyed_inputs()
    batch = runner.key[0]
    data = {"qo_indptr": qo, "kv_indptr": kvi}
    for bad, shown in ((data[which].long(), f"shape ({batch + 1},) torch.int64"),
                       (data[which][:-1], f"shape ({batch},) torch.int32")):
        args = {**data, which: bad}
        message = refused(module.custom_kernel, (q, kv_data, args["qo_indptr"], args["kv_indptr"], config))
        assert message == (f"{runner.name}: {which}: expected shape ({batch + 1},) (batch_size "
                           f"{batch} + 1) torch.int32, got {shown}")


def test_a_wrong_kv_scale_is_refused():
    runner, module, (q, kv_data, qo, kvi, config) = keyed_inputs()
    kv, scale = kv_data["fp8"]
    message = refused(module.custom_kernel, (q, {"fp8": (kv, scale.double())}, qo, kvi, config))
    assert message == (f"{runner.name}: kv_data['fp8'][1] (the KV scale): expected a torch.float32 "
                       "tensor of one element, got shape (1,) torch.float64")


def test_a_runner_that_reads_no_indptr_refuses_too_few_kv_rows():
    """torch_bmm (and aiter) read batch x kv_len rows whatever the indptrs say;
    the Triton runners read the indptrs (segments may be shorter) and cut every
    segment at the KV's last row, so they take fewer."""
    spec, plan, module = built(COVERAGE)
    runner = next(r for r in plan.runners if r.backend == "torch_bmm")
    batch, kv_len = runner.key[:2]
    q, kv_data, qo, kvi, config = make_inputs(uniform_case("bmm", batch, kv_len), 1, "cpu")
    short = {"bf16": kv_data["bf16"][:-1]}
    message = refused(module.custom_kernel, (q, short, qo, kvi, config))
    assert message == (f"{runner.name}: kv_data['bf16']: expected shape (>= {batch * kv_len}, 1, "
                       f"576) (batch_size {batch} x kv_seq_len {kv_len} rows) torch.bfloat16, "
                       f"got shape ({batch * kv_len - 1}, 1, 576) torch.bfloat16")
    assert all(r.min_kv_rows == 0 for r in plan.all_runners if r.backend.startswith("triton"))


def test_the_fallback_refuses_a_q_that_is_not_bf16():
    _, _, module = built()
    data = make_inputs(uniform_case("f", 5, 40), 1, "cpu")
    message = refused(module.custom_kernel, (data[0].float(),) + data[1:])
    assert message == ("run_fallback: q: expected shape (5, 16, 576) torch.bfloat16, got shape "
                       "(5, 16, 576) torch.float32")


def test_mxfp4_scales_with_too_few_rows_or_four_byte_elements_are_refused():
    spec, plan, module = built(ROOT / "tests/specs/mxfp4.yaml")
    runner = next(r for r in plan.runners if r.kv_format == "mxfp4")
    shape = next(s for s in spec.shapes if s.key == runner.key)
    q, kv_data, qo, kvi, config = make_inputs(uniform_case("mx", shape.batch, shape.kv_len,
                                                           shape.q_seq_len, shape.num_heads),
                                              1, "cpu")
    packed, scales = kv_data["mxfp4"]
    rows = packed.shape[0]
    for bad in (scales[: rows - 1], scales[:, :18].float()):
        message = refused(getattr(module, runner.name), (q, {"mxfp4": (packed, bad)}, qo, kvi, config))
        assert f"{runner.name}: kv_data['mxfp4'][1] (the block scales): expected a 2-D uint8 or " \
               f"torch.float8_e8m0fnu tensor of at least ({rows}, 18)" in message


def test_a_torch_bmm_runner_reads_the_first_rows_of_a_longer_kv():
    """torch_bmm views the KV's first batch x kv_len rows: more rows are allowed
    by the check (at least batch x kv_len), so the runner must take them too."""
    spec, plan, module = built(COVERAGE)
    runner = next(r for r in plan.runners if r.backend == "torch_bmm")
    batch, kv_len = runner.key[:2]
    data = make_inputs(uniform_case("bmm", batch, kv_len), 1, "cpu")
    expected = module.custom_kernel(data).clone()
    longer = {"bf16": torch.cat([data[1]["bf16"], torch.randn(7, 1, 576).bfloat16()])}
    assert torch.equal(getattr(module, runner.name)(data[0], longer, *data[2:]), expected)


@pytest.mark.parametrize("path", SPECS + [ROOT / "tests/golden/all_backends.yaml"],
                         ids=lambda p: p.stem)
def test_every_runner_checks_its_inputs_first(path):
    """Each runner's first statement is the shared host check (one function in
    the file, so that every backend's runners refuse the same inputs the same
    way); the gluon runners, whose template builds TMA descriptors (which bound
    every KV access), are listed apart until they call it."""
    spec = load_spec(path)
    plan = build_plan(spec)
    tree = ast.parse(render(plan, spec))
    checks = [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "_mla_inputs"]
    assert checks == ["_mla_inputs"]
    for runner in plan.all_runners:
        if runner.backend == "gluon":
            continue
        fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == runner.name)
        body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        first = ast.unparse(body[0])
        assert first.startswith(f"kv, kv_scale = _mla_inputs('{runner.name}', q, kv_data, qo_indptr, "
                                f"kv_indptr, '{runner.kv_format}'"), (runner.name, first)


# ---------------------------------------------------------------------------
# The fallback reads the indptrs' values on the host
# ---------------------------------------------------------------------------


def test_the_fallback_refuses_q_seq_len_disagreeing_with_qo_indptr():
    """config["q_seq_len"] 1 while qo_indptr gives 2 rows a batch element: the grid
    would cover one row of each, leaving the other rows of the output unwritten."""
    _, _, module = built()
    q, kv_data, qo, kvi, config = make_inputs(uniform_case("f", 5, 40, q_seq_len=2), 1, "cpu")
    message = refused(module.custom_kernel, (q, kv_data, qo, kvi, {**config, "q_seq_len": 1}))
    assert message == ("run_fallback: qo_indptr: expected 0 to config['q_seq_len'] = 1 query rows "
                       "per batch element, got 2 for batch element 0")


@pytest.mark.parametrize("change, expected", [
    (lambda qo, kvi: (qo, torch.cat([kvi[:-1], kvi[-1:] + 1])),
     "run_fallback: kv_indptr: expected segments inside the KV's 200 rows, got 0 to 201"),
    (lambda qo, kvi: (qo, kvi.flip(0)),
     "run_fallback: kv_indptr: expected non-decreasing offsets, got 200 then 160 at batch element 0"),
    (lambda qo, kvi: (qo, torch.tensor([0, 80, 40, 120, 160, 200], dtype=torch.int32)),
     "run_fallback: kv_indptr: expected non-decreasing offsets, got 80 then 40 at batch element 1"),
    (lambda qo, kvi: (qo - 1, kvi),
     "run_fallback: qo_indptr: expected segments from 0 to q's 5 rows, got -1 to 4"),
])
def test_the_fallback_refuses_indptr_values_past_the_tensors(change, expected):
    _, _, module = built()
    q, kv_data, qo, kvi, config = make_inputs(uniform_case("f", 5, 40), 1, "cpu")
    qo, kvi = change(qo, kvi)
    assert refused(module.custom_kernel, (q, kv_data, qo, kvi, config)) == expected


def test_the_fallback_refuses_a_config_that_disagrees_with_the_tensors():
    _, _, module = built()
    q, kv_data, qo, kvi, config = make_inputs(uniform_case("f", 5, 40), 1, "cpu")
    message = refused(module.custom_kernel, (q, kv_data, qo, kvi, {**config, "num_heads": 32}))
    assert message == ("run_fallback: config['num_heads']: expected 16 (as q and qo_indptr say), "
                       "got 32")


def test_the_fallback_reads_no_indptr_value_while_a_cuda_graph_captures(monkeypatch):
    """A device-to-host read cannot be captured: while a stream captures, the
    value check is skipped (the kernels still keep their accesses in bounds)."""
    _, _, module = built()
    q, kv_data, qo, kvi, config = make_inputs(uniform_case("f", 5, 40), 1, "cpu")
    bad = torch.cat([kvi[:-1], kvi[-1:] + 1])
    kv = kv_data["fp8"][0]
    with pytest.raises(ValueError):
        module._mla_check_segments("run_fallback", q, kv, qo, bad, config)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "is_current_stream_capturing", lambda: True)
    reads = []
    monkeypatch.setattr(torch.Tensor, "tolist", lambda self: reads.append(self) or [])
    module._mla_check_segments("run_fallback", q, kv, qo, bad, config)
    assert reads == []


def test_the_fallback_keeps_at_most_eight_sizes_of_buffers():
    """64 sizes once held 553 MB: the buffers are an LRU cache of 8 sizes."""
    _, _, module = built()
    module._fallback_buffers.cache_clear()
    for batch in range(1, 13):
        module.custom_kernel(make_inputs(uniform_case("f", batch, 20), batch, "cpu"))
    info = module._fallback_buffers.cache_info()
    assert info.maxsize == 8 and info.currsize == 8 and info.misses == 12


# ---------------------------------------------------------------------------
# The kernels keep every access inside the tensors (no host read of the indptrs)
# ---------------------------------------------------------------------------


def tail_of_nan(t: torch.Tensor, extra: int) -> torch.Tensor:
    """t's values as the first rows of a longer tensor whose other rows are NaN:
    a kernel that reads past t reads NaN; one that writes past it changes them."""
    big = torch.full((t.shape[0] + extra, *t.shape[1:]), float("nan"), dtype=torch.float32)
    big = big.to(t.dtype)
    big[: t.shape[0]] = t
    return big[: t.shape[0]]


def test_kv_indptr_past_the_end_of_the_kv_reads_nothing_past_it():
    runner, module, (q, kv_data, qo, kvi, config) = keyed_inputs()
    kv, scale = kv_data["fp8"]
    guarded = {"fp8": (tail_of_nan(kv, 64), scale)}
    rows = kv.shape[0]
    within = module.custom_kernel((q, guarded, qo, kvi, config)).clone()
    assert torch.isfinite(within.float()).all()
    past = kvi.clone()
    past[-1] = rows + 50  # the last segment runs 50 rows past the KV
    out = getattr(module, runner.name)(q, guarded, qo, past, config)
    assert torch.isfinite(out.float()).all()
    assert torch.equal(out, within)  # the segment is cut at the KV's last row


def test_qo_indptr_past_the_end_of_q_writes_nothing_past_the_output(monkeypatch):
    runner, module, (q, kv_data, qo, kvi, config) = keyed_inputs()
    batch = runner.key[0]
    names = [b.name for b in runner.detail.buffers]
    assert names == ["part_o", "part_lse", "out"]  # a split runner with a merge kernel
    guarded, bigs = [], []
    for name, b in zip(names, getattr(module, f"_{runner.tag}_buffers")(q.device)):
        dim = 1 if name.startswith("part") else 0  # the partials' rows are their dim 1
        shape = list(b.shape)
        shape[dim] += 8
        big = torch.full(shape, float("nan"), dtype=b.dtype)
        guarded.append(big.narrow(dim, 0, b.shape[dim]))
        bigs.append((name, big.narrow(dim, b.shape[dim], 8)))
    monkeypatch.setattr(module, f"_{runner.tag}_buffers", lambda device: tuple(guarded))
    bad = qo.clone()
    bad[-2:] = torch.tensor([batch + 3, batch + 4])  # the last element's row is past q's
    out = getattr(module, runner.name)(tail_of_nan(q, 8), kv_data, bad, kvi, config)
    assert out is guarded[-1]
    for name, tail in bigs:
        assert torch.isnan(tail.float()).all(), f"{name}: written past its rows"
    assert torch.isfinite(out[: batch - 1].float()).all()  # the other elements are computed
