"""Properties of the generated files themselves, read from their syntax trees."""

import ast

import pytest

from generator.core.planner import build_plan
from generator.core.render import render
from generator.core.spec import load_spec

from conftest import ROOT, SPECS


def generated(spec_path):
    spec = load_spec(spec_path)
    return spec, render(build_plan(spec), spec)


def function(tree, name):
    return next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)


@pytest.mark.parametrize("path", SPECS + [ROOT / "tests/golden/all_backends.yaml"],
                         ids=lambda p: p.stem)
def test_custom_kernel_is_one_lookup_and_one_call(path):
    _, source = generated(path)
    fn = function(ast.parse(source), "custom_kernel")
    forbidden = (ast.If, ast.For, ast.While, ast.Try, ast.With, ast.IfExp, ast.Match,
                 ast.ListComp, ast.DictComp, ast.GeneratorExp, ast.BoolOp)
    assert not [n for n in ast.walk(fn) if isinstance(n, forbidden)]
    body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    ret = body[-1]
    assert isinstance(ret, ast.Return)
    call = ret.value  # RUNNERS.get(key, run_fallback)(*data)
    assert isinstance(call.func, ast.Call) and ast.unparse(call.func) == "RUNNERS.get(key, run_fallback)"
    assert ast.unparse(call) == "RUNNERS.get(key, run_fallback)(*data)"
    key = ast.unparse(body[-2].value)
    for field in ("batch_size", "kv_seq_len", "q_seq_len", "num_heads"):
        assert f"config['{field}']" in key


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.stem)
def test_runner_table_matches_spec_order_and_names(path):
    spec, source = generated(path)
    tree = ast.parse(source)
    table = next(n for n in tree.body if isinstance(n, ast.Assign)
                 and ast.unparse(n.targets[0]) == "RUNNERS")
    keys = [ast.literal_eval(k) for k in table.value.keys]
    assert keys == [s.key for s in spec.shapes]
    names = [v.id for v in table.value.values]
    assert len(set(names)) == len(names)
    defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert set(names) | {"run_fallback", "custom_kernel"} <= defined


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.stem)
def test_kernels_are_named_after_their_shape(path):
    spec, source = generated(path)
    tree = ast.parse(source)
    kernels = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)
               and any(ast.unparse(d) == "triton.jit" for d in n.decorator_list)
               and n.name.startswith("mla_")]
    assert len(set(kernels)) == len(kernels)
    for shape in spec.shapes:
        if shape.backend.startswith("triton"):
            assert any(k.startswith(f"mla_b{shape.batch}_kv{shape.kv_len}_") for k in kernels)
    assert any(k.startswith("mla_fallback_") for k in kernels)


def test_leaderboard_header_and_imports():
    _, mi355x = generated(ROOT / "specs/mi355x.yaml")
    lines = mi355x.splitlines()
    assert lines[:2] == ["#!POPCORN leaderboard amd-mixed-mla", "#!POPCORN gpu MI355X"]
    assert "from aiter.mla import mla_decode_fwd" in lines
    assert 'os.environ.setdefault("HIP_FORCE_DEV_KERNARG", "1")' in lines
    _, h200 = generated(ROOT / "specs/h200.yaml")
    tree = ast.parse(h200)
    modules = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    modules |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    # re: l2_policy's PTX hook (the h200 spec sets it on some shapes);
    # weakref: the gluon runners' KV descriptors are dropped with their tensor
    assert modules == {"functools", "re", "weakref", "torch", "triton", "triton.language", "task",
                       "triton.experimental", "triton.experimental.gluon",
                       "triton.experimental.gluon.language.nvidia.hopper",
                       "triton.experimental.gluon.nvidia.hopper"}
    assert "waves_per_eu" not in h200 and "#!POPCORN" not in h200


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.stem)
def test_runners_allocate_nothing_per_call(path):
    """Buffers come from a cached function; runners themselves never call torch.empty."""
    _, source = generated(path)
    tree = ast.parse(source)
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef) and fn.name.startswith("run_"):
            calls = {ast.unparse(c.func) for c in ast.walk(fn) if isinstance(c, ast.Call)}
            assert not calls & {"torch.empty", "torch.zeros", "torch.full", "torch.tensor"}, fn.name


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.stem)
def test_docstring_says_outputs_are_reused_across_calls(path):
    _, source = generated(path)
    doc = " ".join(ast.get_docstring(ast.parse(source)).split())
    assert "Output buffers are reused" in doc
    assert "a runner's next call overwrites the tensor it returned" in doc


def test_a_runner_returns_the_same_tensor_on_every_call_as_documented():
    import torch

    from generator.gpu.check import prepare
    from generator.gpu.inputs import make_inputs, uniform_case

    spec, plan, module, _ = prepare(ROOT / "tests/specs/mutants.yaml", interpret=True)
    shape = spec.shapes[0]
    case = uniform_case("m", shape.batch, shape.kv_len)
    first = module.custom_kernel(make_inputs(case, 1, "cpu"))
    kept = first.clone()
    second = module.custom_kernel(make_inputs(case, 2, "cpu"))
    assert second is first and not torch.equal(second, kept)


def test_gluon_kv_descriptors_view_the_same_bytes_and_live_as_long_as_the_cache():
    """The host side of the gluon runners (the kernels need the GPU): a 2-D
    descriptor in 64 x 64 boxes and the (chunks, rows, 64) view whose
    8 x 64 x 64 box is a tile's latent part, over the KV tensor's own bytes;
    made once per KV tensor and dropped with it; a view TMA cannot address
    (row stride not a multiple of 16 bytes) is copied and never cached."""
    import gc

    import torch

    from generator.gpu.harness import import_submission

    module = import_submission((ROOT / "build/h200/submission.py").read_text())
    kv = torch.zeros(130, 1, 576, dtype=torch.float8_e4m3fn)
    chunks, latent = module._mla_gluon_kv_desc(kv)
    assert (list(chunks.shape), list(chunks.strides), list(chunks.block_shape)) == (
        [130, 576], [576, 1], [64, 64])
    assert (list(latent.shape), list(latent.strides), list(latent.block_shape)) == (
        [9, 130, 64], [64, 576, 1], [8, 64, 64])
    assert latent.base.data_ptr() == chunks.base.data_ptr() == kv.data_ptr()
    assert (latent.layout.swizzle_byte_width, latent.layout.rank) == (64, 3)
    again = module._mla_gluon_kv_desc(kv)
    assert again[0] is chunks and again[1] is latent and len(module._GL_KV_DESCS) == 1
    del kv, chunks, latent, again
    gc.collect()
    assert module._GL_KV_DESCS == {}
    padded = torch.zeros(130, 1, 584, dtype=torch.float8_e4m3fn)[:, :, :576]
    copied, _ = module._mla_gluon_kv_desc(padded)
    assert copied.base.is_contiguous() and copied.base.data_ptr() != padded.data_ptr()
    assert module._GL_KV_DESCS == {}


def test_gluon_launch_binds_arguments_once_per_kernel_device_and_alignment(monkeypatch):
    """_gl_launch, the gluon runners' launch: a call whose tensors are all
    16-byte aligned goes through the JIT (kernel[grid]) once and keeps the
    compiled kernel's launcher (three grid axes) for later aligned calls on the
    same device; a call with a misaligned tensor always takes the JIT's path
    (the JIT specialises on alignment) and is never kept; nor is a launch the
    JIT did not compile (gen resources records launches so)."""
    import torch

    from generator.gpu.harness import import_submission

    module = import_submission((ROOT / "build/h200/submission.py").read_text())
    device = [0]
    monkeypatch.setattr(torch.cuda, "current_device", lambda: device[0])
    jit, launched = [], []

    class Kernel:
        def __init__(self, compiles=True):
            self.compiles = compiles

        def __getitem__(self, grid):
            def run(*args, **options):
                jit.append((self, grid, args, options))
                return Compiled() if self.compiles else None
            return run

    class Compiled:
        def __getitem__(self, grid):
            return lambda *args: launched.append((grid, args))

    kernel, options = Kernel(), dict(num_warps=4, launch_cooperative_grid=True)
    aligned, misaligned = torch.zeros(8), torch.zeros(9)[1:]
    assert aligned.data_ptr() % 16 == 0 and misaligned.data_ptr() % 16 == 4
    module._gl_launch(kernel, (4, 32), options, aligned, "desc", 1.5)
    assert jit == [(kernel, (4, 32), (aligned, "desc", 1.5), options)] and launched == []
    module._gl_launch(kernel, (4, 32), options, aligned, "desc", 2.5)
    assert len(jit) == 1 and launched == [((4, 32, 1), (aligned, "desc", 2.5))]
    for _ in range(2):
        module._gl_launch(kernel, (4, 32), options, misaligned, "desc", 1.5)
    assert len(jit) == 3 and jit[-1][2][0] is misaligned and len(launched) == 1
    module._gl_launch(kernel, (8, 32), options, aligned, "desc", 1.5)  # another grid: its own kernel
    device[0] = 1
    module._gl_launch(kernel, (4, 32), options, aligned, "desc", 1.5)  # another device: its own kernel
    module._gl_launch(kernel, (4, 32), options, aligned, "desc", 1.5)
    assert len(jit) == 5 and len(launched) == 2 and len(module._GL_LAUNCHERS) == 3
    recorded = Kernel(compiles=False)
    for _ in range(2):
        module._gl_launch(recorded, (4, 32), options, aligned, "desc", 1.5)
    assert len(jit) == 7 and len(launched) == 2 and len(module._GL_LAUNCHERS) == 3


@pytest.mark.parametrize("runner, kernel, grid, batch, kv_len, splits", [
    ("run_b4_kv1024", "mla_b4_kv1024_gluon_split16", (4, 32), 4, 1024, 16),  # dv_split 2: two programs a split
    ("run_b64_kv8192", "mla_b64_kv8192_gluon_split2", (64, 2), 64, 8192, 2),
])
def test_gluon_barrier_runner_is_one_cooperative_launch_with_zeroed_counters(
        monkeypatch, runner, kernel, grid, batch, kv_len, splits):
    """Splits merged behind a barrier in the committed H200 build: the
    attention kernel is the runner's only launch, cooperative (its programs
    wait for one another), its counters are int64 zeros, one per batch element,
    and its partials are (split, row, head, dim) e4m3; the kernel itself only
    runs on a Hopper GPU: gen check proves it there."""
    import torch

    from generator.gpu.harness import import_submission
    from generator.gpu.inputs import make_inputs, uniform_case

    module = import_submission((ROOT / "build/h200/submission.py").read_text())
    launches = []
    monkeypatch.setattr(getattr(module, kernel), "run",
                        lambda *args, grid, warmup, **kwargs: launches.append((grid, args, kwargs)))
    out = getattr(module, runner)(*make_inputs(uniform_case("barrier", batch, kv_len), 1, "cpu"))
    ((got_grid, args, kwargs),) = launches  # a second kernel would run here and fail on the CPU
    assert tuple(got_grid) == grid and kwargs["launch_cooperative_grid"] is True
    part_o, part_lse, counters = args[7:10]
    assert counters.dtype == torch.int64 and tuple(counters.shape) == (batch,) and not counters.any()
    assert part_o.dtype == torch.float8_e4m3fn and tuple(part_o.shape) == (splits, batch, 16, 512)
    assert part_lse.dtype == torch.float32 and tuple(part_lse.shape) == (splits, batch, 16)
    assert args[6] is out and tuple(out.shape) == (batch, 16, 512)


def test_the_h200_file_stays_readable():
    """The committed H200 build: at most 1,500 lines, and no Gluon function a
    reader cannot hold (about 150 lines at most)."""
    source = (ROOT / "build/h200/submission.py").read_text()
    assert len(source.splitlines()) <= 1500
    gluon = [node for node in ast.parse(source).body if isinstance(node, ast.FunctionDef)
             and any("gluon.jit" in ast.unparse(d) for d in node.decorator_list)]
    assert gluon, "no @gluon.jit function found"
    longest = max(gluon, key=lambda node: node.end_lineno - node.lineno)
    assert longest.end_lineno - longest.lineno + 1 <= 150, longest.name
