"""kv_format mxfp4 on the gluon backend: its plan, its host side, and its
decode instructions run by an interpreter of the PTX they are written in.

The kernel itself needs a Hopper GPU (gen check proves it there, non-uniform
and padded or unpadded scales included); what a CPU can check is checked here:
the byte-permute decode (the inline PTX, executed instruction by instruction
against torch's own e4m3 rounding for every code and every shift), its
tables, the TMA descriptors over the packed rows and the arguments a runner
hands the kernel."""

import re

import pytest
import torch

from generator.errors import SpecError
from generator.core.planner import build_plan
from generator.core.spec import parse_spec
from generator.gpu.harness import import_submission
from generator.gpu.inputs import E2M1_VALUES, make_inputs, quantize_mxfp4, uniform_case

from conftest import generated_source

SPEC = """target: {name: t, platform: cuda, fp8_format: e4m3fn}
shapes:
  - {batch: 4, kv_len: 1024, backend: gluon, kv_format: mxfp4, splits: 16}
  - {batch: 256, kv_len: 1024, backend: gluon, splits: 1}
fallback: {backend: triton_split, splits: 4}
"""


@pytest.fixture(scope="module")
def source():
    return generated_source(SPEC)


@pytest.fixture(scope="module")
def module(source):
    return import_submission(source)


def consts(launch):
    return {c.name: c.value for c in launch.constexprs}


def test_plan_marks_the_mxfp4_runner_only():
    plan = build_plan(parse_spec(SPEC, "t.yaml"))
    mx, fp8 = plan.runners
    assert mx.detail.mxfp4 and mx.kv_format == "mxfp4" and "MX_TABLES" in mx.detail.params
    assert mx.launches[0].kernel == "mla_b4_kv1024_gluon_mxfp4_split16"
    assert not fp8.detail.mxfp4 and "MX_TABLES" not in fp8.detail.params
    # the kernel reads the format from the descriptor's type: no constexpr for it
    assert "MXFP4" not in {c.name for r in plan.runners for c in r.launches[0].constexprs}


def test_the_decode_stage_is_emitted_only_where_a_runner_reads_mxfp4(source):
    from conftest import ROOT

    assert "def _gl_mx_decode(" in source and "MXFP4: gl.constexpr = kv_desc.dtype == gl.uint8" in source
    h200 = (ROOT / "build/h200/submission.py").read_text()
    assert "_gl_mx_" not in h200 and "MXFP4: gl.constexpr" not in h200 and "MX_TABLES" not in h200


def ptx_block(source: str) -> list[list[str]]:
    """The decode's PTX instructions as [opcode, operands...]."""
    body = re.search(r'"""\{(.*?)\}"""', source[source.index("def _gl_mx_decode("):], re.S).group(1)
    out = []
    for line in body.split(";"):
        line = line.strip()
        if line and not line.startswith(".reg"):
            op, args = line.split(None, 1)
            out.append([op] + [a.strip() for a in args.split(",")])
    return out


def prmt(a: int, b: int, sel: int) -> int:
    """PTX prmt.b32 (default mode): result byte i is byte (sel nibble i) & 7 of
    {b, a}; with the nibble's bit 3 set, that byte's sign bit replicated."""
    src = (b << 32) | a
    out = 0
    for i in range(4):
        nib = (sel >> (4 * i)) & 0xF
        byte = (src >> (8 * (nib & 7))) & 0xFF
        if nib & 8:
            byte = 0xFF if byte & 0x80 else 0
        out |= byte << (8 * i)
    return out


def run_ptx(instrs, x: int, tlo: int, thi: int) -> tuple[int, int]:
    regs = {"$2": x, "$3": tlo, "$4": thi}
    val = lambda a: regs[a] if a in regs else int(a, 0)  # noqa: E731
    mask = 0xFFFFFFFF
    for op, d, *args in instrs:
        a = [val(s) for s in args]
        if op == "mov.b32":
            regs[d] = a[0]
        elif op == "and.b32":
            regs[d] = a[0] & a[1]
        elif op == "or.b32":
            regs[d] = a[0] | a[1]
        elif op == "shr.u32":
            regs[d] = a[0] >> a[1]
        elif op == "shl.b32":
            regs[d] = (a[0] << a[1]) & mask
        elif op == "prmt.b32":
            regs[d] = prmt(a[0], a[1], a[2])
        else:
            raise AssertionError(f"the interpreter lacks {op}")
    return regs["$0"], regs["$1"]


def test_decode_ptx_gives_each_code_times_two_to_minus_k_in_e4m3(source, module):
    """Every e2m1 code (both signs) at every position of a word, for every
    shift k the kernel uses (0 .. 15): the two output words hold, in element
    order, the e4m3 rounding of code x 2^-k (torch's), -0 allowed for 0."""
    instrs = ptx_block(source)
    tables = module._mla_gluon_mx_tables(torch.device("cpu"))
    assert tables.dtype == torch.int32 and tuple(tables.shape) == (16, 2)
    gen = torch.Generator().manual_seed(0)
    words = [int(w) for w in torch.randint(0, 2**32, (64,), generator=gen, dtype=torch.int64)]
    words += [sum(c << (4 * i) for i in range(8)) for c in range(16)]  # every code in every slot
    for k in range(16):
        tlo, thi = (int(v) & 0xFFFFFFFF for v in tables[k])
        for w in words:
            lo, hi = run_ptx(instrs, w, tlo, thi)
            got = torch.tensor([(v >> (8 * i)) & 0xFF for v in (lo, hi) for i in range(4)],
                               dtype=torch.uint8).view(torch.float8_e4m3fn).float()
            codes = [(w >> (4 * i)) & 0xF for i in range(8)]
            want = torch.tensor([E2M1_VALUES[c & 7] * (-1 if c & 8 else 1) for c in codes]) * 2.0 ** -k
            want = want.to(torch.float8_e4m3fn).float()
            assert torch.equal(got, want), (k, hex(w))


def test_mx_descriptors_split_each_packed_row_into_latent_halves_and_rope(module):
    kv = torch.zeros(130, 1, 288, dtype=torch.uint8)
    latent, rope = module._mla_gluon_mx_desc(kv)
    assert (list(latent.shape), list(latent.strides), list(latent.block_shape)) == (
        [2, 130, 128], [128, 288, 1], [2, 64, 128])
    assert (list(rope.shape), list(rope.strides), list(rope.block_shape)) == ([130, 288], [288, 1], [64, 32])
    assert latent.base.data_ptr() == rope.base.data_ptr() == kv.data_ptr()
    assert (latent.layout.swizzle_byte_width, rope.layout.swizzle_byte_width) == (128, 32)
    padded = torch.zeros(130, 1, 296, dtype=torch.uint8)[:, :, :288]  # row stride 296: not 16-byte
    copied, _ = module._mla_gluon_mx_desc(padded)
    assert copied.base.is_contiguous() and copied.base.data_ptr() != padded.data_ptr()


@pytest.mark.parametrize("pad", [(256, 24), (0, 0)], ids=["padded", "unpadded"])
def test_runner_hands_the_kernel_the_scale_tensor_and_its_strides(monkeypatch, module, pad):
    """The block exponents are read through the strides the tensor has
    (padded columns and rows, or none), the rows bounded by the cache's."""
    launches = []
    monkeypatch.setattr(module.mla_b4_kv1024_gluon_mxfp4_split16, "run",
                        lambda *args, grid, warmup, **kwargs: launches.append(args))
    data = make_inputs(uniform_case("mx", 4, 1024), 1, "cpu")
    packed, _ = data[1]["mxfp4"]
    _, scales = quantize_mxfp4(data[1]["bf16"].view(-1, 576), *pad)
    data[1]["mxfp4"] = (packed, scales)
    module.run_b4_kv1024(*data)
    ((args),) = launches
    assert args[3].data_ptr() == scales.data_ptr()
    tables, stride_row, stride_col, kv_rows = args[10:14]
    assert torch.equal(tables, module._mla_gluon_mx_tables(torch.device("cpu")))
    assert (stride_row, stride_col, kv_rows) == (scales.stride(0), scales.stride(1), 4 * 1024)
