"""Backends as data: the only place that knows what a backend is.

Each entry names its template, plan function, the spec fields it takes and
their defaults per platform, the values worth trying (for a tuner), its Q modes,
KV formats, platforms and limits. The spec checker, the plan, `gen check` and
`gen tune` read these entries; none of them tests a backend's name. Adding a
backend is one entry here, one plan function (generator/core/backends/) and
one template (templates/backends/).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from types import MappingProxyType
from typing import Any

from generator.core.backends import aiter, gluon, torch_bmm, triton
from generator.core.contract import FP8_FORMATS  # noqa: F401  (re-exported for the spec)

Q_MODES = ("bf16", "fp8_static", "fp8_dynamic")
MMA_DTYPES = ("bf16", "fp16")
# How split-K partials are merged: by a second kernel; inside the attention
# kernel by the last split of each row to finish (one launch instead of two;
# Triton backends); or inside the attention kernel by every split, each
# merging its share of the output dims once all splits of its row have
# arrived at a barrier (gluon: its programs wait for one another, so all
# must be resident at once).
MERGES = ("kernel", "last_split", "barrier")
PLATFORMS = ("cuda", "rocm")

# Waivers of the resource report's CI rules (gen resources --check): a keyed
# runner's kernel that spills registers, or whose wgmmas ptxas serialises
# (warnings C7514/C7515), fails unless its entry carries the waiver with a
# non-empty reason. field -> what the reason must say. Every backend that
# launches compiled kernels (Triton's or Gluon's) offers them.
WAIVERS: Mapping[str, str] = MappingProxyType({
    "allow_spills": "this entry's kernels may spill registers",
    "allow_serialized_wgmma": "this entry's kernels may run with serialised wgmmas",
})
_WAIVER_FIELDS = tuple(WAIVERS)

# Triton launch options that only the HIP backend understands: fields of the
# Triton backends' entries on a rocm target (an entry's value overrides the
# target's triton_options), emitted only for rocm.
HIP_OPTIONS = ("waves_per_eu", "matrix_instr_nonkdim", "kpack")
TARGET_TRITON_OPTIONS = MappingProxyType({"cuda": (), "rocm": HIP_OPTIONS})
# Entry fields that exist on one platform only: field -> its platforms.
PLATFORM_FIELDS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {name: ("rocm",) for name in HIP_OPTIONS})

# The environment variables a spec's target.env may set, per platform. The
# generated file sets them when it is imported, in the leaderboard's process
# and in gen's own (gen check, bench, tune and resources import it), so only
# runtime knobs that change how kernels are launched or where work goes, each
# harmless in any process; never what loads code or redirects files
# (LD_PRELOAD, PYTHONPATH, TRITON_CACHE_DIR, TRITON_PTXAS_PATH, ...) and never
# a compiler switch (TRITON_*: it would change what gen resources compiles).
ENV_NAMES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "rocm": (
        # kernel arguments in device memory: cheaper launches (AMD's tuning
        # guides for MI300/MI355X; the seed submission set it)
        "HIP_FORCE_DEV_KERNARG",
        # keep a spilling kernel's scratch allocated between launches instead
        # of reclaiming it after each one
        "HSA_NO_SCRATCH_RECLAIM",
        # hardware queues the HIP runtime spreads streams over
        "GPU_MAX_HW_QUEUES",
        # hipBLASLt or rocBLAS behind torch's matmuls (the torch_bmm backend)
        "TORCH_BLAS_PREFER_HIPBLASLT",
    ),
    "cuda": (
        # hardware work queues per device
        "CUDA_DEVICE_MAX_CONNECTIONS",
        # lazy or eager loading of kernel modules (the first call's cost)
        "CUDA_MODULE_LOADING",
    ),
})

# The fallback serves any bf16 q the task allows: values a fallback may not
# take, with the reason. fp16 MMA operands overflow above 65504, bf16 ones do not.
FALLBACK_FORBIDDEN: Mapping[str, Mapping[Any, str]] = MappingProxyType({
    "mma_dtype": MappingProxyType({"fp16": "fp16 overflows above 65504 and the fallback must "
                                           "take any bf16 q; use bf16"}),
})
# ...and its defaults on top of the backend's, for the same reason.
FALLBACK_DEFAULTS: Mapping[str, Any] = MappingProxyType({"mma_dtype": "bf16"})


@dataclass(frozen=True)
class Backend:
    """What a backend is, where it runs, which spec fields it takes and how it is planned."""

    name: str
    # templates/<template>: a macro library with imports(runners), shared(plan)
    # and runner(r, plan) (see templates/submission.py.j2).
    template: str
    # (RunnerInput, resolved fields) -> BackendPlan; see generator/core/plan.py.
    plan: Callable
    platforms: tuple[str, ...]
    q_modes: tuple[str, ...]
    kv_formats: tuple[str, ...]
    fields: tuple[str, ...]
    # platform -> field -> value, for every field in `fields` that has a default.
    defaults: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    required: tuple[str, ...] = ()
    # field -> values worth trying: the space `gen tune` searches for an entry of
    # this backend (a spec entry's `tune:` replaces it; generator/tune/space.py),
    # on every platform; platform_space adds axes on one platform. Every point
    # of the product must pass the spec stage (tests/test_spaces.py): see
    # space_for.
    search_space: Mapping[str, tuple] = field(default_factory=dict)
    platform_space: Mapping[str, Mapping[str, tuple]] = field(default_factory=dict)
    # (num_heads, kv_len, axes) -> axes: the space narrowed to what one shape
    # can run (limits below), so that no point of it is refused.
    space_trim: Callable | None = None
    # Standard-library modules its generated code imports.
    stdlib: tuple[str, ...] = ()
    needs_aiter: bool = False
    # Correct for every input the contract allows (unequal and empty KV
    # segments, q_seq_len > 1 with end-aligned causal masking, any head
    # count): only such a backend may serve as the fallback.
    general: bool = False
    # Needs every KV segment of the batch to have the same length.
    uniform_kv_only: bool = False
    max_q_seq_len: int | None = None
    # The head count must be a multiple of this, and at most max_num_heads.
    heads_multiple: int = 1
    max_num_heads: int | None = None
    # field -> the only values this backend takes (narrower than the spec's own ranges).
    choices: Mapping[str, tuple] = field(default_factory=dict)
    # What the library behind the backend cannot run, beyond the limits above:
    # (num_heads, kv_len, resolved fields) -> [(field, message)], checked by
    # the spec stage on every keyed shape (see generator/core/backends/).
    limits: Callable | None = None
    # Triton's interpreter (or plain torch) can run it on a CPU.
    runs_on_cpu: bool = True
    # `gen check`'s strict bound on ||out - ref|| / ||ref|| against float32
    # math on the operands the runner reads (measurements below).
    strict_bound: float = 1e-2
    # KV format -> its own strict bound, where it differs from strict_bound.
    strict_bound_by_kv: Mapping[str, float] = field(default_factory=dict)
    # How its splits merge when the backend has no `merge` field (MERGES), for
    # the runner's summary.
    merge: str | None = None
    # Combinations of fields the backend cannot run, checked on every entry
    # (fallback included): (resolved fields, fp8 format) -> [(field, message)].
    field_rules: Callable | None = None
    # Shared memory (bytes) a program of the entry's kernels needs at least:
    # resolved fields -> bytes, checked by the spec stage against the target
    # architecture's limit (occupancy.MAX_SHARED_PER_BLOCK).
    shared_floor: Callable | None = None

    def space_for(self, platform: str, num_heads: int, kv_len: int) -> dict[str, tuple]:
        """The search space of an entry of this backend for one shape on a platform."""
        axes = {**self.search_space, **self.platform_space.get(platform, {})}
        return self.space_trim(num_heads, kv_len, axes) if self.space_trim else axes

    def defaults_for(self, platform: str, fallback: bool = False) -> dict[str, Any]:
        """This backend's defaults on a platform (a fallback's made safe for any q)."""
        out = dict(self.defaults.get(platform, {}))
        if fallback:
            out.update({k: v for k, v in FALLBACK_DEFAULTS.items() if k in self.fields})
        return out


# Strict bounds, measured: on the H200 (PERF.md, 34 cases per run) fp16 and
# bf16 MMAs gave 2.6e-4 to 2.0e-3 and torch_bmm 1.3e-3 to 2.4e-3; interpreter
# builds (float32 dots, bf16 output rounded by the interpreter) 2.9e-3 to
# 4.0e-3 on the CPU. 1e-2 leaves 2.5x or more headroom and stays far below what
# a real fault costs (tests/test_kernels_interpret.py): an all-zero output
# scores 1.0, a skipped KV tile or a wrong scale more than 0.1. aiter cannot run
# here; its fp8 kernels round P to fp8 like SGLang's (3e-2 measured for SGLang
# on the H200), hence 6e-2.
# The gluon backend rounds P to e4m3 too (3 mantissa bits): 1.0e-2 to
# 2.35e-2 on the H200 (28 cases, the largest with q past q_absmax at kv 1024),
# as an e4m3 rounding of P alone costs on randn inputs. Its bound, 3e-2, admits
# that and still fails an all-zero output (1.0), a wrong scale and one skipped
# 64-row tile: 0.19 at kv 1024 (1 of 16), 0.037 at kv 8192 (1 of 128), where
# 6e-2 would let up to 3 of 128 pass (tests/test_kernels_interpret.py). A
# runner that also rounds its partials to e4m3 takes its own bound
# (gluon.STRICT_BOUND_PARTIALS_FP8).
STRICT_BOUND_PV_FP8 = 3e-2

_TRITON_FIELDS = (
    "q_mode",
    "kv_format",
    "block_n",
    "block_q",
    "num_warps",
    "num_stages",
    "mma_dtype",
    "v_reload",
    "q_absmax",
    "qk_scaled",
    *_WAIVER_FIELDS,
    *HIP_OPTIONS,
)
_TRITON_COMMON = {
    "q_mode": "bf16",
    "kv_format": "fp8",
    "num_warps": 4,
    "v_reload": True,
    # q is standard normal in the task's inputs: |q| > 6 has probability 2e-9
    # per element, so a fixed scale of 6 / fp8_max loses almost nothing.
    "q_absmax": 6.0,
    # MXFP4 scores through tl.dot_scaled instead of dequantised tl.dot: off until
    # measured (on the H200 it is Triton's bf16 emulation; see specs/mi355x.yaml).
    "qk_scaled": False,
}
_TRITON_DEFAULTS = {
    # Measured best on the H200 for most shapes (PERF.md, sweeps of
    # 2026-11-30): query-major MMAs over 32-row KV tiles, V loaded a second
    # time from L1/L2, 3 pipeline stages, fp16 MMAs: fp8 -> fp16 is one
    # conversion instruction per pair, fp8 -> bf16 several, and fp16 ran up to
    # 1.6x faster (exact for fp8 KV; q must stay below 65504 in magnitude).
    "cuda": MappingProxyType(
        {**_TRITON_COMMON, "block_n": 32, "num_stages": 3, "mma_dtype": "fp16"}
    ),
    # Not measured on an MI355X (none is available to us): the hand-written
    # seed submission's values, bf16 MMAs (safe for any q).
    "rocm": MappingProxyType(
        {**_TRITON_COMMON, "block_n": 64, "num_stages": 2, "mma_dtype": "bf16"}
    ),
}
_SPLIT_EXTRA = {"reduce_block_dv": 128, "merge": "kernel"}
_TRITON_SPACE = {
    "block_n": (16, 32, 64),
    "num_warps": (2, 4, 8),
    "num_stages": (2, 3, 4),
    "q_mode": ("bf16", "fp8_static"),
    "mma_dtype": ("bf16", "fp16"),
    "v_reload": (True, False),
}
# The HIP launch options worth trying on a rocm target (compiled for gfx950
# with triton 3.6, gen resources, block_n 16, 4 warps, 2 stages). waves_per_eu
# 1 (a wave may take its SIMD's 512 registers: 262 taken) or 2 (two waves
# share them: 230, no spill, one wave's loads under the other's MFMAs); 0 (no
# hint) compiled to the same kernel as 1, and 3 or more leave 170 registers or
# fewer, below what these tiles take. matrix_instr_nonkdim 16 or 32: 32x32
# MFMAs compile (120 of them) but spilled 116 registers at waves_per_eu 2,
# which the resource gate rejects. kpack is not tried: Triton (3.6 on) sets it
# to 1 on gfx950, the MI355X, so its candidates would be one kernel twice; an
# entry tuned for gfx942 may list it under `tune:`.
_TRITON_HIP_SPACE = MappingProxyType({"rocm": MappingProxyType({
    "waves_per_eu": (1, 2),
    "matrix_instr_nonkdim": (16, 32),
})})
# What both Triton backends share: one template, one plan function (split or not).
_TRITON_COMMON_ENTRY: dict[str, Any] = {
    "template": "backends/triton.py.j2",
    "platforms": PLATFORMS,
    "q_modes": ("bf16", "fp8_static"),
    "kv_formats": ("fp8", "bf16", "mxfp4"),
    "stdlib": ("functools",),
    "general": True,
    "field_rules": triton.field_rules,
    "shared_floor": triton.shared_floor,
    "platform_space": _TRITON_HIP_SPACE,
    # MXFP4, measured in the interpreter (float32 dots; 2026-12, tests/specs/mxfp4.yaml,
    # 25 cases incl. non-uniform block scales, both scale layouts, unequal and empty
    # segments, 30x scores, dot_scaled scores): 9.0e-4 to 3.4e-3, as fp8 and bf16 KV
    # (the bf16 output rounding). Dequantised e2m1 x 2^k is exact in bf16 and (within
    # its range) fp16, so the GPU's MMAs should add only what they add for fp8 KV:
    # the same 1e-2, until an H200 run measures it. A wrong nibble order or scale
    # exponent scores above 0.1 (tests/test_mxfp4.py).
    "strict_bound_by_kv": MappingProxyType({"mxfp4": 1e-2}),
}

BACKENDS: Mapping[str, Backend] = MappingProxyType(
    {
        b.name: b
        for b in (
            Backend(
                name="torch_bmm",
                template="backends/torch_bmm.py.j2",
                plan=torch_bmm.plan,
                platforms=PLATFORMS,
                q_modes=("bf16",),
                kv_formats=("bf16",),
                fields=("q_mode", "kv_format"),
                defaults={p: {"q_mode": "bf16", "kv_format": "bf16"} for p in PLATFORMS},
                uniform_kv_only=True,
                max_q_seq_len=1,
            ),
            Backend(
                name="triton_single",
                plan=partial(triton.plan, split=False),
                fields=_TRITON_FIELDS,
                defaults=_TRITON_DEFAULTS,
                search_space=_TRITON_SPACE,
                **_TRITON_COMMON_ENTRY,
            ),
            Backend(
                name="triton_split",
                plan=partial(triton.plan, split=True),
                fields=_TRITON_FIELDS + ("splits", "reduce_block_dv", "merge"),
                choices={"merge": ("kernel", "last_split")},
                defaults={p: {**d, **_SPLIT_EXTRA} for p, d in _TRITON_DEFAULTS.items()},
                required=("splits",),
                search_space={
                    **_TRITON_SPACE,
                    "splits": (2, 4, 8, 16, 32, 64),
                    "reduce_block_dv": (64, 128, 256, 512),
                    # its merges (choices above): barrier is gluon's
                    "merge": ("kernel", "last_split"),
                },
                **_TRITON_COMMON_ENTRY,
            ),
            Backend(
                name="gluon",
                template="backends/gluon.py.j2",
                plan=gluon.plan,
                platforms=("cuda",),
                # e4m3 x e4m3 score wgmmas: Q is quantised with the static scale.
                # MXFP4 KV is decoded to e4m3 in shared memory (per-row exponents
                # applied to the scores and P; generator/core/backends/gluon.py).
                q_modes=("fp8_static",),
                kv_formats=("fp8", "mxfp4"),
                fields=("q_mode", "kv_format", "splits", "num_stages", "consumers", "dv_split", "speculate",
                        "l2_policy", "early_refill", "v_early", "partials", "q_absmax", *_WAIVER_FIELDS),
                # What each field does: generator/core/backends/gluon.py. Each
                # non-default value pays on some committed H200 entry, measured
                # in one process against the entry without it (PERF.md).
                defaults={"cuda": MappingProxyType({
                    "q_mode": "fp8_static",
                    "kv_format": "fp8",
                    # two tiles in flight: two programs an SM, each a tile ahead
                    "num_stages": 2,
                    "consumers": 1,
                    "dv_split": 1,
                    "speculate": False,
                    "l2_policy": "none",
                    "early_refill": False,
                    "v_early": False,
                    # MXFP4's partials are not bounded by the fp8 maximum: fp32
                    # is the one type every KV format takes.
                    "partials": "fp32",
                    "q_absmax": 6.0,
                })},
                required=("splits",),
                # gen tune's space for an entry without a `tune:` of its own:
                # the ring's depth and the two tile-timing switches.
                search_space={
                    "num_stages": (2, 1, 3),
                    "early_refill": (False, True),
                    "v_early": (False, True),
                },
                choices={
                    "partials": ("fp32", "fp16", "fp8"),
                    "l2_policy": ("none", "evict_first", "evict_last"),
                    # The KV ring (36 KB a stage) must fit the 227 KB a program may have.
                    "num_stages": (1, 2, 3, 4),
                    "consumers": (1, 2),
                    "dv_split": (1, 2),
                },
                field_rules=gluon.field_rules,
                # the splits wait for one another and merge a share each (no merge kernel)
                merge="barrier",
                # functools: the buffers' cache; weakref: the KV descriptors' cache
                stdlib=("functools", "weakref"),
                # One query token and 16 heads: the wgmma N the kernel is laid out for.
                max_q_seq_len=1,
                heads_multiple=16,
                max_num_heads=16,
                # Gluon has no interpreter: only a Hopper GPU runs it.
                runs_on_cpu=False,
                # Every gluon runner rounds P to e4m3 (gen check holds it to
                # STRICT_BOUND_PV_FP8, see plan.p_fp8).
                strict_bound=STRICT_BOUND_PV_FP8,
            ),
            Backend(
                name="aiter",
                template="backends/aiter.py.j2",
                plan=aiter.plan,
                platforms=("rocm",),
                q_modes=Q_MODES,
                kv_formats=("fp8", "bf16"),
                fields=("q_mode", "kv_format", "splits", "persistent", "q_absmax"),
                defaults={"rocm": {
                    "q_mode": "fp8_static",
                    "kv_format": "fp8",
                    "persistent": False,
                    "q_absmax": 6.0,
                }},
                required=("splits",),
                # bf16 Q only runs persistent (aiter.limits): the quantised Q
                # modes are the space (the leaderboard's reference is fp8 Q);
                # space_trim drops what a shape cannot take.
                search_space={
                    "splits": (1, 2, 4, 8, 16, 32),
                    "persistent": (False, True),
                    "q_mode": ("fp8_static", "fp8_dynamic"),
                },
                space_trim=aiter.trim_space,
                stdlib=("functools",),
                needs_aiter=True,
                uniform_kv_only=True,
                # The runner builds qo_indptr with one row per batch element and
                # passes max_seqlen_q = 1: further query rows would never be written.
                max_q_seq_len=1,
                heads_multiple=16,
                limits=aiter.limits,
                runs_on_cpu=False,
                strict_bound=6e-2,
            ),
        )
    }
)


def general_backends() -> tuple[str, ...]:
    return tuple(name for name, b in BACKENDS.items() if b.general)
