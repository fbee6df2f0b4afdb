"""Stage 2: turn a validated Spec into a Plan, plain data the templates only substitute.

Every default, name, grid, buffer shape, constexpr value and import is decided
here; templates loop over the plan's lists and branch only on its flags.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from generator.registry import BACKENDS, FP8_MAX
from generator.spec import EntrySpec, ShapeSpec, Spec

# The task's fixed geometry (CONTRACT.md): 576 = 512 latent (also V) + 64 rope.
QK_DIM = 576
KV_LORA = 512
ROPE_DIM = 64
SM_SCALE = 1.0 / math.sqrt(QK_DIM)
DEFAULT_HEADS = 16

# Triton type of each fp8 format, and the smallest normal exponent (for the
# interpreter's exact-rounding workaround).
_TL_FP8 = {"e4m3fn": "tl.float8e4nv", "e4m3fnuz": "tl.float8e4b8"}
_TORCH_FP8 = {"e4m3fn": "torch.float8_e4m3fn", "e4m3fnuz": "torch.float8_e4m3fnuz"}
_FP8_MIN_EXP = {"e4m3fn": -6, "e4m3fnuz": -7}
_TL_MMA = {"bf16": "tl.bfloat16", "fp16": "tl.float16"}


@dataclass(frozen=True)
class Const:
    """A kernel constexpr: `value` is a Python literal baked into the kernel's
    signature, or None when the runner passes it at launch (fallback)."""

    name: str
    value: str | None
    launch: str | None = None


@dataclass(frozen=True)
class Runner:
    """Everything one runner (and its kernels) needs; backend-specific fields
    are None where they do not apply."""

    backend: str
    template: str
    tag: str
    runner: str
    key: tuple[int, int, int, int] | None
    title: str
    summary: str
    q_mode: str
    kv_format: str
    # Sizes as Python expressions: literals for a keyed shape, expressions
    # over the inputs for the fallback.
    batch: str
    total_q: str
    num_heads: str
    kv_len: str
    # MMA operand type of the Triton backends (None elsewhere); fp8_static's Q scale.
    mma_dtype: str | None = None
    q_scale: str | None = None
    # Triton backends
    stage1: str | None = None
    stage2: str | None = None
    reduce: bool = False
    # The attention kernel merges the splits itself (no stage2 kernel).
    merge_in_stage1: bool = False
    # The attention kernel stores the final bf16 output (one pass or merged).
    writes_out: bool = False
    splits: int = 1
    stage1_consts: tuple[Const, ...] = ()
    stage2_consts: tuple[Const, ...] = ()
    grid1: str | None = None
    grid2: str | None = None
    launch1: tuple[tuple[str, str], ...] = ()
    launch2: tuple[tuple[str, str], ...] = ()
    kv_unpack: str | None = None
    # aiter
    persistent: bool = False
    aiter_q_dtype: str | None = None
    aiter_kv_dtype: str | None = None
    aiter_quant: str | None = None
    aiter_q_arg: str | None = None
    aiter_q_scale_arg: str | None = None


@dataclass(frozen=True)
class Plan:
    spec_path: str
    target: str
    platform: str
    header: tuple[str, ...]
    env: tuple[tuple[str, str], ...]
    imports: tuple[str, ...]
    needs_triton: bool
    uses_aiter: bool
    interpret: bool
    sm_scale: str
    fp8_torch: str
    fp8_tl: str
    fp8_max: str
    fp8_min_exp: int
    runners: tuple[Runner, ...]
    fallback: Runner

    def describe(self) -> dict[str, Any]:
        return asdict(self)


def _tag(shape: ShapeSpec) -> str:
    tag = f"b{shape.batch}_kv{shape.kv_len}"
    if shape.q_seq_len != 1:
        tag += f"_q{shape.q_seq_len}"
    if shape.num_heads != DEFAULT_HEADS:
        tag += f"_h{shape.num_heads}"
    return tag


def _pow2_at_least(n: int) -> int:
    return 1 << max(n - 1, 0).bit_length()


def _resolve(entry: EntrySpec) -> dict[str, Any]:
    """The backend's defaults overlaid with what the entry sets."""
    return {**BACKENDS[entry.backend].defaults, **entry.tuning()}


def _title(shape: ShapeSpec | None) -> str:
    if shape is None:
        return "fallback: any other input (unequal or empty KV segments, q_seq_len > 1, any heads)"
    return (
        f"batch {shape.batch}, kv_len {shape.kv_len}, q_seq_len {shape.q_seq_len}, "
        f"{shape.num_heads} heads"
    )


def _summary(backend: str, cfg: dict[str, Any]) -> str:
    parts = [backend]
    if "splits" in cfg:
        merged = ", merged in-kernel" if cfg.get("merge") == "last_split" else ""
        parts.append(f"{cfg['splits']} splits{merged}")
    if "block_n" in cfg:
        parts.append(f"block_n {cfg['block_n']}")
    parts.append(f"{cfg['kv_format']} KV")
    parts.append(f"{cfg['q_mode']} Q")
    if "mma_dtype" in cfg:
        parts.append(f"{cfg['mma_dtype']} MMA")
    if "num_warps" in cfg:
        parts.append(f"{cfg['num_warps']} warps, {cfg['num_stages']} stages")
    if "persistent" in cfg:
        parts.append("persistent" if cfg["persistent"] else "non-persistent")
    return ", ".join(parts)


def _sizes(shape: ShapeSpec | None) -> dict[str, str]:
    if shape is None:
        return {
            "batch": "qo_indptr.shape[0] - 1",
            "total_q": "q.shape[0]",
            "num_heads": "q.shape[1]",
            "kv_len": 'config["kv_seq_len"]',
        }
    return {
        "batch": str(shape.batch),
        "total_q": str(shape.batch * shape.q_seq_len),
        "num_heads": str(shape.num_heads),
        "kv_len": str(shape.kv_len),
    }


def _kv_unpack(kv_format: str) -> str:
    if kv_format == "fp8":
        return 'kv, kv_scale = kv_data["fp8"]'
    return 'kv, kv_scale = kv_data["bf16"], None'


def _plan_triton(spec: Spec, shape: ShapeSpec | None, entry: EntrySpec, cfg: dict,
                 interpret: bool) -> dict:
    target = spec.target
    reduce = entry.backend == "triton_split"
    splits = cfg["splits"] if reduce else 1
    merge_in_stage1 = reduce and cfg["merge"] == "last_split"
    q_fp8 = cfg["q_mode"] == "fp8_static"
    fp8_max = FP8_MAX[target.fp8_format]
    tag = _tag(shape) if shape else "fallback"
    stem = f"mla_{tag}_" + (f"split{splits}" if reduce else "single")
    stem += "_fp8q" if q_fp8 else ""
    stem += "_bf16kv" if cfg["kv_format"] == "bf16" else ""

    # The interpreter computes tl.dot wrongly on bf16/fp16/fp8 operands and
    # exactly on float32 ones (ANCHORS.md): interpreter builds feed it float32.
    mma = "tl.float32" if interpret else _TL_MMA[cfg["mma_dtype"]]
    # fp8 x fp8 scores only when both operands are fp8; a quantised Q against
    # bf16 KV is widened back (exactly) to the MMA type.
    qk_fp8 = q_fp8 and cfg["kv_format"] == "fp8"
    qk = "tl.float32" if interpret else (_TL_FP8[target.fp8_format] if qk_fp8 else mma)
    if shape is None:
        block_q = cfg.get("block_q", 1)
        heads = [
            Const("NUM_HEADS", None, "q.shape[1]"),
            Const("BLOCK_H", None, "max(16, triton.next_power_of_2(q.shape[1]))"),
        ]
        causal = True
        q_blocks = f'triton.cdiv(config["q_seq_len"], {block_q})'
    else:
        block_q = cfg.get("block_q", min(_pow2_at_least(shape.q_seq_len), 8))
        block_h = max(_pow2_at_least(shape.num_heads), 16)
        while block_q > 1 and block_q * block_h > 128:
            block_q //= 2
        heads = [Const("NUM_HEADS", str(shape.num_heads)), Const("BLOCK_H", str(block_h))]
        causal = shape.q_seq_len > 1
        q_blocks = str(-(-shape.q_seq_len // block_q))
    q_scale = cfg["q_absmax"] / fp8_max if q_fp8 else 1.0
    stage1 = tuple(heads) + (
        Const("BLOCK_Q", str(block_q)),
        Const("BLOCK_N", str(cfg["block_n"])),
        Const("NUM_SPLITS", str(splits)),
        Const("CAUSAL", str(causal)),
        Const("KV_FP8", str(cfg["kv_format"] == "fp8")),
        Const("Q_FP8", str(q_fp8)),
        Const("Q_SCALE", repr(q_scale)),
        Const("QK_DTYPE", qk),
        Const("PV_DTYPE", mma),
        Const("KV_MAJOR", str(cfg["mma_m"] == "kv")),
        Const("V_RELOAD", str(cfg["v_reload"])),
    )
    sizes = _sizes(shape)
    grid_q = (sizes["batch"], q_blocks)
    options = [("num_warps", str(cfg["num_warps"])), ("num_stages", str(cfg["num_stages"]))]
    options += [(k, str(v)) for k, v in sorted(target.triton_options.items())]
    if merge_in_stage1:
        stem += "_merged"
    plan = {
        "mma_dtype": cfg["mma_dtype"],
        "q_scale": repr(q_scale) if q_fp8 else None,
        "stage1": f"{stem}_stage1" if reduce and not merge_in_stage1 else stem,
        "reduce": reduce,
        "merge_in_stage1": merge_in_stage1,
        "writes_out": merge_in_stage1 or not reduce,
        "splits": splits,
        "stage1_consts": stage1,
        "grid1": f"({grid_q[0]}, {grid_q[1]}, {splits})",
        "launch1": tuple(options),
        "kv_unpack": _kv_unpack(cfg["kv_format"]),
    }
    if reduce and not merge_in_stage1:
        block_dv = cfg["reduce_block_dv"]
        plan.update(
            stage2=f"{stem}_stage2",
            stage2_consts=tuple(heads)
            + (
                Const("BLOCK_Q", str(block_q)),
                Const("NUM_SPLITS", str(splits)),
                Const("BLOCK_DV", str(block_dv)),
            ),
            grid2=f"({grid_q[0]}, {grid_q[1]}, {KV_LORA // block_dv})",
            launch2=(("num_warps", "4"),)
            + tuple((k, str(v)) for k, v in sorted(target.triton_options.items())),
        )
    return plan


_AITER_QUANT = {"fp8_static": "static_per_tensor_quant", "fp8_dynamic": "dynamic_per_tensor_quant"}


def _plan_aiter(spec: Spec, cfg: dict) -> dict:
    fp8_max = FP8_MAX[spec.target.fp8_format]
    quant = _AITER_QUANT.get(cfg["q_mode"])
    return {
        "splits": cfg["splits"],
        "persistent": cfg["persistent"],
        "aiter_q_dtype": "FP8_DTYPE" if quant else "torch.bfloat16",
        "aiter_kv_dtype": "FP8_DTYPE" if cfg["kv_format"] == "fp8" else "torch.bfloat16",
        "aiter_quant": quant,
        "aiter_q_arg": 'ctx["q_fp8"]' if quant else "q",
        "aiter_q_scale_arg": 'ctx["q_scale"]' if quant else "None",
        "q_scale": repr(cfg["q_absmax"] / fp8_max) if cfg["q_mode"] == "fp8_static" else None,
        "kv_unpack": _kv_unpack(cfg["kv_format"]),
    }


def _plan_runner(spec: Spec, shape: ShapeSpec | None, entry: EntrySpec, interpret: bool) -> Runner:
    backend = BACKENDS[entry.backend]
    cfg = _resolve(entry)
    tag = _tag(shape) if shape else "fallback"
    extra: dict[str, Any] = {}
    if backend.name in ("triton_single", "triton_split"):
        extra = _plan_triton(spec, shape, entry, cfg, interpret)
    elif backend.name == "aiter":
        extra = _plan_aiter(spec, cfg)
    return Runner(
        backend=backend.name,
        template=backend.template,
        tag=tag,
        runner=f"run_{tag}",
        key=shape.key if shape else None,
        title=_title(shape),
        summary=_summary(backend.name, cfg),
        q_mode=cfg["q_mode"],
        kv_format=cfg["kv_format"],
        **_sizes(shape),
        **extra,
    )


def _imports(runners: list[Runner], needs_triton: bool) -> tuple[str, ...]:
    lines = []
    if any(r.backend != "torch_bmm" for r in runners):
        lines.append("import functools")
    lines.append("")
    lines.append("import torch")
    if needs_triton:
        lines.append("import triton")
        lines.append("import triton.language as tl")
    aiter = [r for r in runners if r.backend == "aiter"]
    if any(r.persistent for r in aiter):
        lines.append("from aiter import get_mla_metadata_info_v1, get_mla_metadata_v1")
    if aiter:
        lines.append("from aiter.mla import mla_decode_fwd")
    quant = sorted({r.aiter_quant for r in aiter if r.aiter_quant})
    if quant:
        lines.append(f"from aiter.ops.quant import {', '.join(quant)}")
    lines.append("")
    lines.append("from task import input_t, output_t")
    return tuple(lines)


def build_plan(spec: Spec, interpret: bool = False) -> Plan:
    """Resolve defaults and derive every value the templates need.

    interpret=True plans a build for Triton's CPU interpreter: float32 dot
    operands and an exact fp8 rounding step (see ANCHORS.md); never committed.
    """
    runners = [_plan_runner(spec, s, s, interpret) for s in spec.shapes]
    fallback = _plan_runner(spec, None, spec.fallback, interpret)
    everything = runners + [fallback]
    needs_triton = any(r.stage1 for r in everything)
    target = spec.target
    return Plan(
        spec_path=spec.path,
        target=target.name,
        platform=target.platform,
        header=tuple(target.header),
        env=tuple(sorted(target.env.items())),
        imports=_imports(everything, needs_triton),
        needs_triton=needs_triton,
        uses_aiter=any(r.backend == "aiter" for r in everything),
        interpret=interpret,
        sm_scale=repr(SM_SCALE),
        fp8_torch=_TORCH_FP8[target.fp8_format],
        fp8_tl=_TL_FP8[target.fp8_format],
        fp8_max=repr(FP8_MAX[target.fp8_format]),
        fp8_min_exp=_FP8_MIN_EXP[target.fp8_format],
        runners=tuple(runners),
        fallback=fallback,
    )
