"""Inputs exactly as the task makes them (docs/contract.md), with torch alone.

q and the bf16 KV come from torch.randn; the fp8 and MXFP4 copies are
quantised from the bf16 KV. Segments may be unequal or empty and q_seq_len
may exceed 1, for the checks that go through the fallback.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from generator.core.contract import E2M1_VALUES, KV_LORA, MX_BLOCK, QK_DIM, ROPE_DIM, SM_SCALE


# e2m1 code -> value for codes 0..7; bit 3 is the sign.

FP8_DTYPES = {"e4m3fn": torch.float8_e4m3fn, "e4m3fnuz": torch.float8_e4m3fnuz}


@dataclass(frozen=True)
class Case:
    """One input to check: its geometry, how it was drawn, and the key it presents."""

    name: str
    batch: int
    kv_lens: tuple[int, ...]
    q_seq_len: int = 1
    num_heads: int = 16
    # config["kv_seq_len"]: the nominal length the runner table is keyed on.
    kv_seq_len: int = 0
    # Multiplies the bf16 KV (and so every score): large values make a
    # softmax without max-subtraction overflow.
    kv_gain: float = 1.0
    # Multiplies q: q ~ N(0, q_gain^2) probes a static Q scale's margin.
    q_gain: float = 1.0
    # MXFP4 copy: the scale tensor's (row multiple, columns); (0, 0) leaves it
    # unpadded, (total_kv, 18). The task's aiter versions pad to (256, 24) or not.
    mx_pad: tuple[int, int] = (256, 24)
    # Hand the MXFP4 copy over as torch's float4_e2m1fn_x2 / float8_e8m0fnu
    # instead of uint8 (the task allows either).
    mx_torch_dtypes: bool = False
    # Multiply each 32-dim block of each KV row by 2^k, k drawn from
    # [-mx_spread[0], mx_spread[1]], and zero one block in 16 (e8m0 byte 0):
    # non-uniform block scales. (0, 0): the task's inputs.
    mx_spread: tuple[int, int] = (0, 0)
    tags: tuple[str, ...] = field(default=())

    @property
    def key(self) -> tuple[int, int, int, int]:
        return (self.batch, self.kv_seq_len, self.q_seq_len, self.num_heads)

    @property
    def kv_bytes_fp8(self) -> int:
        return sum(self.kv_lens) * QK_DIM


def uniform_case(name: str, batch: int, kv_len: int, q_seq_len=1, num_heads=16, **kw) -> Case:
    return Case(name, batch, (kv_len,) * batch, q_seq_len, num_heads, kv_len, **kw)


# ---------------------------------------------------------------------------
# fp8, per tensor
# ---------------------------------------------------------------------------


def quantize_fp8(x: torch.Tensor, fp8_dtype: torch.dtype) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-tensor fp8 quantisation as the task does it: scale = amax / fp8_max
    (computed in x's dtype, as the task's code does), x / scale clamped, cast.
    Returns (x_fp8, scale as a (1,) float32 tensor); dequantise as x_fp8 * scale."""
    fp8_max = torch.finfo(fp8_dtype).max
    amax = x.abs().amax().clamp(min=1e-12)
    scale = amax / fp8_max
    x_fp8 = (x / scale).clamp(min=-fp8_max, max=fp8_max).to(fp8_dtype)
    return x_fp8, scale.to(torch.float32).reshape(1)


def quantize_fp8_static(x: torch.Tensor, scale: float, fp8_dtype: torch.dtype) -> torch.Tensor:
    """x / scale clamped to the format's range and cast (a fixed, build-time scale)."""
    fp8_max = torch.finfo(fp8_dtype).max
    return (x.float() / scale).clamp(min=-fp8_max, max=fp8_max).to(fp8_dtype)


# ---------------------------------------------------------------------------
# MXFP4, block 32 along the 576 dims
# ---------------------------------------------------------------------------


def _e2m1_codes(v: torch.Tensor) -> torch.Tensor:
    """Round |v| (already scaled) to the nearest e2m1 code, ties to even, saturating at 6.

    Midpoints between neighbours are 0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5; at a
    tie the even code wins, hence > on one side and >= on the other."""
    a = v.abs()
    code = (
        (a > 0.25).to(torch.uint8)
        + (a >= 0.75)
        + (a > 1.25)
        + (a >= 1.75)
        + (a > 2.5)
        + (a >= 3.5)
        + (a > 5.0)
    )
    return code.to(torch.uint8) | ((v < 0).to(torch.uint8) << 3)


def mx_block_exponents(blocks: torch.Tensor) -> torch.Tensor:
    """The shared exponent of each block of 32 (int32, unbiased): the block's
    amax rounded up at the 1.5 mantissa threshold, floor(log2), minus 2."""
    amax = blocks.abs().amax(dim=-1).float()
    bits = amax.view(torch.int32)
    rounded = (bits + 0x200000) & 0x7F800000
    return (rounded >> 23) - 127 - 2


def quantize_mxfp4(
    x: torch.Tensor, pad_rows: int = 256, pad_cols: int = 24
) -> tuple[torch.Tensor, torch.Tensor]:
    """MXFP4 copy of x (rows, 576) as the contract describes.

    Returns (packed uint8 (rows, 288): element 2i in the low nibble of byte i,
    2i+1 in the high one; e8m0 scales uint8 (rows rounded up to pad_rows,
    pad_cols) whose first 18 columns hold each block's biased exponent)."""
    rows, dims = x.shape
    blocks = x.float().reshape(rows, dims // MX_BLOCK, MX_BLOCK)
    exp = mx_block_exponents(blocks).clamp(-127, 127)
    scaled = blocks / torch.exp2(exp.float())[..., None]
    codes = _e2m1_codes(scaled).reshape(rows, dims)
    packed = codes[:, 0::2] | (codes[:, 1::2] << 4)
    n_rows = -(-rows // pad_rows) * pad_rows if pad_rows else rows
    n_cols = max(pad_cols, dims // MX_BLOCK)
    scales = torch.zeros((n_rows, n_cols), dtype=torch.uint8, device=x.device)
    scales[:rows, : dims // MX_BLOCK] = (exp + 127).to(torch.uint8)
    return packed.contiguous(), scales


def dequantize_mxfp4(packed: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    """float32 (rows, 576) from an MXFP4 copy; reads only the valid scale entries."""
    packed, scales = packed.view(torch.uint8), scales.view(torch.uint8)
    rows, half = packed.shape
    dims = half * 2
    codes = torch.stack([packed & 0xF, packed >> 4], dim=-1).reshape(rows, dims).long()
    table = torch.tensor(E2M1_VALUES, dtype=torch.float32, device=packed.device)
    values = table[codes & 7] * torch.where(codes >= 8, -1.0, 1.0)
    exp = scales[:rows, : dims // MX_BLOCK].float() - 127
    return (values.reshape(rows, -1, MX_BLOCK) * torch.exp2(exp)[..., None]).reshape(rows, dims)


# ---------------------------------------------------------------------------
# The task's input tuple
# ---------------------------------------------------------------------------


def make_inputs(case: Case, seed: int, device: str | torch.device, fp8_format="e4m3fn"):
    """(q, kv_data, qo_indptr, kv_indptr, config) for one case, drawn fresh from seed."""
    gen = torch.Generator(device=device)
    gen.manual_seed(seed)
    fp8_dtype = FP8_DTYPES[fp8_format]
    total_q = case.batch * case.q_seq_len
    total_kv = sum(case.kv_lens)
    q = torch.randn((total_q, case.num_heads, QK_DIM), dtype=torch.bfloat16, device=device,
                    generator=gen)
    kv = torch.randn((total_kv, 1, QK_DIM), dtype=torch.bfloat16, device=device, generator=gen)
    if case.q_gain != 1.0:
        q = q * case.q_gain
    if case.kv_gain != 1.0:
        kv = kv * case.kv_gain
    if case.mx_spread != (0, 0):
        lo, hi = case.mx_spread
        blocks = QK_DIM // MX_BLOCK
        k = torch.randint(-lo, hi + 1, (total_kv, blocks), generator=gen, device=device)
        gain = torch.exp2(k.float()) * (torch.arange(total_kv * blocks, device=device)
                                        .reshape(total_kv, blocks) % 16 != 5)
        kv = (kv.view(total_kv, blocks, MX_BLOCK).float() * gain[..., None]).to(torch.bfloat16)
        kv = kv.view(total_kv, 1, QK_DIM)
    packed, scales = quantize_mxfp4(kv.view(total_kv, QK_DIM), *case.mx_pad)
    if case.mx_torch_dtypes:
        packed, scales = packed.view(torch.float4_e2m1fn_x2), scales.view(torch.float8_e8m0fnu)
    kv_data = {
        "bf16": kv,
        "fp8": quantize_fp8(kv, fp8_dtype),
        "mxfp4": (packed.view(total_kv, 1, QK_DIM // 2), scales),
    }
    qo_indptr = torch.arange(case.batch + 1, dtype=torch.int32, device=device) * case.q_seq_len
    lens = torch.tensor((0,) + case.kv_lens, dtype=torch.int64)
    kv_indptr = torch.cumsum(lens, 0).to(torch.int32).to(device)
    config = {
        "batch_size": case.batch,
        "num_heads": case.num_heads,
        "num_kv_heads": 1,
        "qk_head_dim": QK_DIM,
        "kv_lora_rank": KV_LORA,
        "qk_rope_head_dim": ROPE_DIM,
        "v_head_dim": KV_LORA,
        "q_seq_len": case.q_seq_len,
        "kv_seq_len": case.kv_seq_len,
        "sm_scale": SM_SCALE,
    }
    return q, kv_data, qo_indptr, kv_indptr, config
