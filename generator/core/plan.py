"""The plan: typed data between the spec and the templates.

Numbers and names only: every default is resolved, every name, grid,
constexpr and buffer shape computed (by generator/core/planner.py and the
backends' plan functions); the templates hold all code and substitute these
values. A size known only when the runner is called (the fallback's) is a
`Dyn`, a name the templates know how to read from the inputs.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Union


@dataclass(frozen=True)
class Dyn:
    """A size read from the inputs at run time, by name:
    batch, total_q, num_heads, block_h (heads rounded up to a power of two,
    at least 16), q_blocks (query blocks of `per` tokens)."""

    name: str
    per: int = 1


@dataclass(frozen=True)
class Dtype:
    """A Triton type, rendered as tl.<name>."""

    name: str


# A constexpr value, grid dimension or buffer dimension.
Value = Union[int, float, bool, str, Dtype, Dyn]


@dataclass(frozen=True)
class Const:
    """A kernel constexpr: baked into the kernel, or passed at launch when a Dyn."""

    name: str
    value: Value


@dataclass(frozen=True)
class Launch:
    """One kernel launch of a runner: the per-shape kernel `kernel` wraps the
    shared @triton.jit body of `family` with these constexprs."""

    kernel: str
    family: str
    constexprs: tuple[Const, ...]
    grid: tuple[int | Dyn, ...]
    options: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Buffer:
    """A device buffer a runner makes once and reuses; dtype is a torch dtype name."""

    name: str
    shape: tuple[int | Dyn, ...]
    dtype: str
    zeroed: bool = False


@dataclass(frozen=True)
class Sizes:
    """A runner's sizes: numbers for a keyed shape, Dyn for the fallback."""

    batch: int | Dyn
    total_q: int | Dyn
    num_heads: int | Dyn
    kv_len: int | Dyn
    # The KV rows the key implies (batch x kv_len).
    kv_rows: int | Dyn


@dataclass(frozen=True)
class RunnerInput:
    """What a backend's plan function is given besides its resolved fields."""

    tag: str
    key: tuple[int, int, int, int] | None  # (batch, kv_len, q_seq_len, num_heads); None: fallback
    sizes: Sizes
    platform: str
    fp8_format: str
    triton_options: tuple[tuple[str, int], ...]
    interpret: bool


@dataclass(frozen=True)
class BackendPlan:
    """What a backend's plan function returns: its launches and its own typed part."""

    launches: tuple[Launch, ...] = ()
    detail: Any = None
    # fp8_static Q's scale (q_absmax / fp8 max); None for other Q modes.
    q_scale: float | None = None
    # Standard-library modules this runner's code needs beyond its backend's.
    stdlib: tuple[str, ...] = ()
    # P (the softmax weights) rounded to fp8 before the PV product: gen check
    # holds the runner to registry.STRICT_BOUND_PV_FP8.
    p_fp8: bool = False
    # gen check's strict bound for this runner where its numerics set their own
    # (None: the backend's, or registry.STRICT_BOUND_PV_FP8 with p_fp8).
    strict_bound: float | None = None


@dataclass(frozen=True)
class Runner:
    backend: str
    template: str
    tag: str
    name: str
    key: tuple[int, int, int, int] | None
    title: str
    summary: str
    q_mode: str
    kv_format: str
    q_scale: float | None
    sizes: Sizes
    launches: tuple[Launch, ...]
    # The backend's typed part (TritonPlan, AiterPlan, ...), or None.
    detail: Any
    # Standard-library modules this runner's code needs beyond its backend's.
    stdlib: tuple[str, ...] = ()
    # P rounded to fp8 before the PV product (BackendPlan.p_fp8).
    p_fp8: bool = False
    # Its own strict bound (BackendPlan.strict_bound), or None.
    strict_bound: float | None = None
    # The fewest KV rows the input check requires: batch x kv_len for a runner
    # that reads every segment as kv_len rows without the indptrs (a backend
    # with uniform_kv_only); 0 where the kernels read the indptrs and keep
    # every segment inside the KV tensor.
    min_kv_rows: int = 0
    # The spec entry's `deterministic`: False lets gen check accept outputs
    # that differ between calls on the same inputs (reported, not failed).
    deterministic: bool = True


@dataclass(frozen=True)
class Plan:
    spec_path: str
    target: str
    platform: str
    header: tuple[str, ...]
    env: tuple[tuple[str, str], ...]
    interpret: bool
    sm_scale: float
    fp8_format: str
    fp8_max: float
    fp8_min_exp: int
    # Standard-library modules and backend templates the file uses, in order.
    stdlib: tuple[str, ...]
    templates: tuple[str, ...]
    runners: tuple[Runner, ...]
    fallback: Runner

    @property
    def all_runners(self) -> tuple[Runner, ...]:
        return self.runners + (self.fallback,)

    @property
    def has_mxfp4(self) -> bool:
        """Some runner reads the MXFP4 KV: the Triton template emits its building blocks."""
        return any(r.kv_format == "mxfp4" for r in self.all_runners)

    def runners_of(self, template: str) -> tuple[Runner, ...]:
        return tuple(r for r in self.all_runners if r.template == template)

    def describe(self) -> dict[str, Any]:
        return asdict(self)
