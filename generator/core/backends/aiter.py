"""aiter: `aiter.mla.mla_decode_fwd` (templates/backends/aiter.py.j2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from generator.core.contract import FP8_MAX
from generator.core.plan import BackendPlan, RunnerInput

# aiter's Q quantisation function for each quantised Q mode.
_QUANT = {"fp8_static": "static_per_tensor_quant", "fp8_dynamic": "dynamic_per_tensor_quant"}

# aiter/mla.py get_meta_param: get_block_n_fp8[16] (16 heads x q_seq_len 1).
FP8_MIN_BLOCK_N = 128


@dataclass(frozen=True)
class AiterPlan:
    splits: int
    persistent: bool
    # aiter's Q quantisation function, or None for bf16 Q.
    quant: str | None
    # Operand types as aiter sees them: "fp8" or "bf16".
    q_dtype: str
    kv_dtype: str


def plan(runner: RunnerInput, cfg: Mapping[str, Any]) -> BackendPlan:
    quant = _QUANT.get(cfg["q_mode"])
    static = cfg["q_mode"] == "fp8_static"
    return BackendPlan(
        detail=AiterPlan(
            splits=cfg["splits"],
            persistent=cfg["persistent"],
            quant=quant,
            q_dtype="fp8" if quant else "bf16",
            kv_dtype=cfg["kv_format"],
        ),
        q_scale=cfg["q_absmax"] / FP8_MAX[runner.fp8_format] if static else None,
    )


def limits(num_heads: int, kv_len: int, cfg: Mapping[str, Any]) -> list[tuple[str, str]]:
    """What aiter's mla_decode_fwd cannot run, as (field, message) pairs, from
    its source (ROCm/aiter): aiter/mla.py (mla_decode_fwd, get_meta_param) and
    the gfx950 kernel table hsa/gfx950/mla/mla_asm.csv (columns qType, kvType,
    Gqa, ps, qSeqLen). q_seq_len 1 is the registry entry's max_q_seq_len."""
    out = []
    q_fp8 = cfg["q_mode"] in _QUANT
    persistent = cfg["persistent"]
    if not persistent and not q_fp8:
        # mla_asm.csv has non-persistent (ps=0) bf16-Q rows only for bf16 KV
        # in recent aiter, none at the commits the signatures come from;
        # bf16 Q x fp8 KV exists only persistent (bf16,fp8,16,1,...).
        out.append(("q_mode", "'bf16' needs persistent: true with aiter (no non-persistent "
                              "bf16-Q kernel for gfx950 in aiter's kernel table)"))
    if not persistent and q_fp8 and num_heads != 16:
        # Non-persistent fp8 rows of mla_asm.csv: Gqa 16 (qSeqLen 1, 2, 4), 8
        # and 128 only; 32 heads exist with ps=1 (persistent) only.
        out.append(("num_heads", f"{num_heads} heads with fp8 Q needs persistent: true with "
                                 "aiter (its non-persistent fp8 kernels take 16 heads)"))
    splits = cfg.get("splits")
    if splits is not None and not persistent and q_fp8:
        # get_meta_param (aiter/mla.py), non-persistent, q.dtype fp8:
        # min_block_n = get_block_n_fp8[nhead * max_seqlen_q] = 128 for 16
        # heads, and num_kv_splits = min(num_kv_splits, ceil(kv_len / 128)):
        # a larger request is silently lowered, so the spec would lie.
        cap = -(-kv_len // FP8_MIN_BLOCK_N)
        if splits > cap:
            out.append(("splits", f"{splits} is above aiter's split cap for fp8 Q at kv_len "
                                  f"{kv_len}: ceil(kv_len / {FP8_MIN_BLOCK_N}) = {cap} (aiter "
                                  f"would run {cap}; set splits: {cap} or fewer)"))
    return out


def trim_space(num_heads: int, kv_len: int, axes: Mapping[str, tuple]) -> dict[str, tuple]:
    """A search space (field -> values) narrowed to what `limits` lets one shape
    run whatever the other axes hold: splits at most the non-persistent fp8
    cap, persistent only where the non-persistent kernels lack the head count,
    bf16 Q only when every candidate is persistent."""
    out = dict(axes)
    if num_heads != 16 and True in out.get("persistent", ()):
        out["persistent"] = (True,)
    if False in out.get("persistent", (False,)):
        cap = -(-kv_len // FP8_MIN_BLOCK_N)
        if "splits" in out:
            out["splits"] = tuple(s for s in out["splits"] if s <= cap)
        if "q_mode" in out:
            out["q_mode"] = tuple(q for q in out["q_mode"] if q in _QUANT)
    return out
