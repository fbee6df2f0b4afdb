"""aiter: `aiter.mla.mla_decode_fwd` (templates/backends/aiter.py.j2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from generator.core.contract import FP8_MAX
from generator.core.plan import BackendPlan, RunnerInput

# aiter's Q quantisation function for each quantised Q mode.
_QUANT = {"fp8_static": "static_per_tensor_quant", "fp8_dynamic": "dynamic_per_tensor_quant"}


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
