"""triton_single and triton_split: flash decode in Triton (templates/backends/triton.py.j2).

One plan function for both: triton_single is the one-pass case (one split,
the attention kernel writes the output), triton_split adds KV splits whose
partials a second kernel (merge: kernel) or the last split to finish
(merge: last_split) merges.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from generator.core.contract import FP8_MAX, KV_LORA, QK_DIM
from generator.core.plan import BackendPlan, Buffer, Const, Dtype, Dyn, Launch, RunnerInput

# Triton type of each fp8 format and MMA operand type.
TL_FP8 = {"e4m3fn": "float8e4nv", "e4m3fnuz": "float8e4b8"}
_TL_MMA = {"bf16": "bfloat16", "fp16": "float16"}
# The most query rows (BLOCK_Q x BLOCK_H) one program holds.
MAX_QUERY_ROWS = 128
# The fallback's buffers are cached per (device, total_q, num_heads): a process
# that meets many sizes (a serving engine's varying batches; 64 sizes held 553
# MB) keeps only the most recent ones. 8 holds every size gen check's generic
# cases and the task's test shapes present at once (6), so that a check or a
# benchmark run never reallocates, and bounds the memory to 8 sizes' partials.
FALLBACK_BUFFER_CACHE = 8


@dataclass(frozen=True)
class TritonPlan:
    splits: int
    # "none": one pass, the attention kernel writes the output; "kernel": a
    # merge kernel reduces the partials; "last_split": the attention kernel's
    # last split to finish does.
    merge: str
    block_q: int
    buffers: tuple[Buffer, ...]
    # The target's fp8 type (Q's static quantisation casts to it).
    fp8: Dtype
    # The attention kernel reads the MXFP4 KV (and takes the scale tensor's strides).
    mxfp4: bool = False
    # How many sizes' buffers the runner keeps (an LRU cache per device and
    # sizes); None: unbounded, for a keyed runner, whose sizes are fixed.
    buffer_cache: int | None = None

    @property
    def buffer_args(self) -> tuple[Dyn, ...]:
        """The run-time sizes the buffers depend on (the fallback's), each once."""
        return tuple(dict.fromkeys(d for b in self.buffers for d in b.shape if isinstance(d, Dyn)))


def field_rules(cfg: Mapping[str, Any], fp8_format: str) -> list[tuple[str, str]]:
    """What the Triton kernels cannot combine: (field, message) per problem."""
    problems = []
    mxfp4 = cfg.get("kv_format") == "mxfp4"
    if cfg.get("qk_scaled") and not mxfp4:
        problems.append(("qk_scaled", "needs kv_format 'mxfp4' (tl.dot_scaled reads the packed "
                                      "e2m1 KV and its e8m0 scales)"))
    if cfg.get("qk_scaled") and cfg.get("q_mode") == "fp8_static" and fp8_format != "e4m3fn":
        problems.append(("qk_scaled", f"fp8 Q enters tl.dot_scaled as OCP e4m3, not the target's "
                                      f"{fp8_format} (use q_mode 'bf16')"))
    return problems


# Bytes of one KV row's values as the attention kernel loads them, per KV
# format (MXFP4: the packed e2m1 bytes; its block scales are not counted).
_KV_TILE_ROW_BYTES = {"fp8": QK_DIM, "bf16": QK_DIM * 2, "mxfp4": QK_DIM // 2}


def shared_floor(cfg: Mapping[str, Any]) -> int:
    """Shared memory (LDS) the attention kernel needs at least: Triton's software
    pipeline keeps num_stages - 1 KV tiles (block_n rows of the KV format) in
    flight in shared memory. A floor, not the total: the kernels triton 3.6
    compiled for sm90 and gfx950 (tests/test_occupancy.py) used from 0 to
    0.9 MB more (operand buffers; most with larger tiles), so a tile above the
    floor is refused here and one that passes may still not fit, which the
    resource report (gen resources, the compiler's own figure) fails."""
    return (cfg["num_stages"] - 1) * cfg["block_n"] * _KV_TILE_ROW_BYTES[cfg["kv_format"]]


def _pow2_at_least(n: int) -> int:
    return 1 << max(n - 1, 0).bit_length()


def plan(runner: RunnerInput, cfg: Mapping[str, Any], split: bool) -> BackendPlan:
    splits = cfg["splits"] if split else 1
    merge = cfg["merge"] if split else "none"
    q_fp8 = cfg["q_mode"] == "fp8_static"
    stem = f"mla_{runner.tag}_" + (f"split{splits}" if split else "single")
    stem += "_fp8q" if q_fp8 else ""
    stem += "_bf16kv" if cfg["kv_format"] == "bf16" else ""
    mxfp4 = cfg["kv_format"] == "mxfp4"
    qk_scaled = mxfp4 and cfg.get("qk_scaled", False)
    stem += ("_mxfp4kv" + ("_scaledqk" if qk_scaled else "")) if mxfp4 else ""
    stem += "_merged" if merge == "last_split" else ""

    # The interpreter computes tl.dot wrongly on bf16/fp16/fp8 operands and
    # exactly on float32 ones: interpreter builds feed it float32.
    mma = Dtype("float32" if runner.interpret else _TL_MMA[cfg["mma_dtype"]])
    # fp8 x fp8 scores only when both operands are fp8; a quantised Q against
    # bf16 KV is widened back (exactly) to the MMA type.
    qk = mma
    if q_fp8 and cfg["kv_format"] == "fp8" and not runner.interpret:
        qk = Dtype(TL_FP8[runner.fp8_format])

    if runner.key is None:
        block_q = cfg.get("block_q", 1)
        heads = (Const("NUM_HEADS", Dyn("num_heads")), Const("BLOCK_H", Dyn("block_h")))
        causal = True
        q_blocks: int | Dyn = Dyn("q_blocks", per=block_q)
    else:
        _, _, q_seq_len, num_heads = runner.key
        block_q = cfg.get("block_q", min(_pow2_at_least(q_seq_len), 8))
        block_h = max(_pow2_at_least(num_heads), 16)
        while block_q > 1 and block_q * block_h > MAX_QUERY_ROWS:
            block_q //= 2
        heads = (Const("NUM_HEADS", num_heads), Const("BLOCK_H", block_h))
        causal = q_seq_len > 1
        q_blocks = -(-q_seq_len // block_q)
    q_scale = cfg["q_absmax"] / FP8_MAX[runner.fp8_format] if q_fp8 else None

    batch, total_q, num_heads = runner.sizes.batch, runner.sizes.total_q, runner.sizes.num_heads
    attend = Launch(
        kernel=f"{stem}_stage1" if merge == "kernel" else stem,
        family="attend",
        constexprs=heads + (
            Const("BLOCK_Q", block_q),
            Const("BLOCK_N", cfg["block_n"]),
            Const("NUM_SPLITS", splits),
            Const("CAUSAL", causal),
            Const("KV_FP8", cfg["kv_format"] == "fp8"),
            Const("Q_FP8", q_fp8),
            Const("Q_SCALE", q_scale if q_fp8 else 1.0),
            Const("QK_DTYPE", qk),
            Const("PV_DTYPE", mma),
            Const("V_RELOAD", cfg["v_reload"]),
            Const("MERGE", merge),
        )
        # Only MXFP4 runners name these (the body's defaults: False), so that
        # the other runners' kernels read as before.
        + ((Const("KV_MXFP4", True), Const("QK_SCALED", qk_scaled)) if mxfp4 else ()),
        grid=(batch, q_blocks, splits),
        options=(("num_warps", cfg["num_warps"]), ("num_stages", cfg["num_stages"]))
        + runner.triton_options,
    )
    launches = [attend]
    out = Buffer("out", (total_q, num_heads, KV_LORA), "bfloat16")
    buffers: tuple[Buffer, ...] = (out,)
    if merge != "none":
        buffers = (
            Buffer("part_o", (splits, total_q, num_heads, KV_LORA), "float32"),
            Buffer("part_lse", (splits, total_q, num_heads), "float32"),
            out,
        )
    if merge == "last_split":
        # Arrival counters per (batch element, query block): zero between calls.
        buffers += (Buffer("counters", (total_q,), "int32", zeroed=True),)
    if merge == "kernel":
        block_dv = cfg["reduce_block_dv"]
        launches.append(Launch(
            kernel=f"{stem}_stage2",
            family="merge",
            constexprs=heads + (
                Const("BLOCK_Q", block_q),
                Const("NUM_SPLITS", splits),
                Const("BLOCK_DV", block_dv),
            ),
            grid=(batch, q_blocks, KV_LORA // block_dv),
            options=(("num_warps", 4),) + runner.triton_options,
        ))
    return BackendPlan(
        launches=tuple(launches),
        detail=TritonPlan(splits=splits, merge=merge, block_q=block_q, buffers=buffers,
                          fp8=Dtype(TL_FP8[runner.fp8_format]), mxfp4=mxfp4,
                          buffer_cache=FALLBACK_BUFFER_CACHE if runner.key is None else None),
        q_scale=q_scale,
    )
