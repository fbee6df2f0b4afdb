"""torch_bmm: batched matmuls in torch (templates/backends/torch_bmm.py.j2)."""

from __future__ import annotations

from typing import Any, Mapping

from generator.core.plan import BackendPlan, RunnerInput


def plan(runner: RunnerInput, cfg: Mapping[str, Any]) -> BackendPlan:
    """No kernels and nothing of its own: the template uses the runner's sizes."""
    return BackendPlan()
