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
# Which side of the attention is the MMAs' M dimension: the query rows
# (heads x tokens) or the KV rows (scores and output computed transposed).
MMA_M = ("heads", "kv")
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
    # A timeline build's kernels stamp the time at fixed points (gen timeline).
    timeline_stamps: bool = False
    # `gen check`'s strict bound on ||out - ref|| / ||ref|| against float32
    # math on the operands the runner reads (measurements below).
    strict_bound: float = 1e-2
    # KV format -> its own strict bound, where it differs from strict_bound.
    strict_bound_by_kv: Mapping[str, float] = field(default_factory=dict)
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
# The gluon backend's pv_format fp8 rounds P to e4m3 too (3 mantissa bits):
# 1.0e-2 to 2.35e-2 on the H200 (PERF.md, twenty-fifth session: 28 cases, the
# largest with q past q_absmax at kv 1024), as an e4m3 rounding of P alone
# costs on randn inputs. Its bound, 3e-2, admits that and still fails an
# all-zero output (1.0), a wrong scale and one skipped 64-row tile: 0.19 at
# kv 1024 (1 of 16), 0.037 at kv 8192 (1 of 128), where 6e-2 would let up to
# 3 of 128 pass (tests/test_kernels_interpret.py).
STRICT_BOUND_PV_FP8 = 3e-2

_TRITON_FIELDS = (
    "q_mode",
    "kv_format",
    "block_n",
    "block_q",
    "num_warps",
    "num_stages",
    "mma_dtype",
    "mma_m",
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
    "mma_m": "heads",
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
    "mma_m": ("heads", "kv"),
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
                # fp8 x fp8 score wgmmas: Q is quantised with the static scale.
                # MXFP4 KV is decoded to fp8 in shared memory (per-row exponents
                # applied to the scores and P; generator/core/backends/gluon.py).
                q_modes=("fp8_static",),
                kv_formats=("fp8", "mxfp4"),
                fields=("q_mode", "kv_format", "splits", "num_warps", "num_stages", "v_parts",
                        "v_buffers", "overlap_scores", "prefetch_v", "v_lookahead", "v_row_pairs", "v_row_swap",
                        "pv_format", "v_early", "max_registers",
                        "pdl", "speculate", "tma_tile", "stagger", "lazy_rescale", "late_fill", "q_fill", "dv_split",
                        "consumers",
                        "merge", "partials", "claim_tiles", "early_refill", "compact_lse", "merge_poll", "l2_policy",
                        "reduce_block_dv", "q_absmax",
                        *_WAIVER_FIELDS),
                defaults={"cuda": MappingProxyType({
                    "q_mode": "fp8_static",
                    "kv_format": "fp8",
                    # Measured on the H200 (PERF.md, 2026-11-30): 4 warps beat 8 on
                    # every shape, also at 128 registers with two 8-warp
                    # programs per SM. A two-tile ring (two programs per SM, each
                    # a tile ahead) beat the one-tile ring by 9-12% on the four
                    # large shapes. V^T loaded from the fp8 ring straight into
                    # the PV wgmma's register operand (v_buffers 0, V in 8
                    # parts, 85 KB) beat V converted to fp16 in shared memory
                    # (V in 4 parts) by 9-12% on the same four shapes (b256
                    # kv8192 384 against 436 us, 74.6% of HBM) and tied on the
                    # small ones. PDL took about 1 us off the small shapes'
                    # merge. Overlapped scores and two V buffers never won.
                    "num_warps": 4,
                    "num_stages": 2,
                    "v_parts": 8,
                    "v_buffers": 0,
                    "overlap_scores": False,
                    # v_buffers 0: load and convert the first 16 KV rows'
                    # register operands while the tile's score wgmmas run. 240
                    # registers against 206; 3-6% slower on the four large
                    # shapes on the H200 (b256 kv8192 325.8 against 308.6 us).
                    "prefetch_v": False,
                    # v_lookahead (v_buffers 0): each 16 KV rows' fp8 bytes
                    # load from the ring one group ahead of their conversion
                    # to fp16, so that the conversion under the previous
                    # group's wgmmas does not wait for its shared-memory
                    # loads (the largest stall of the consumer's profile;
                    # about 32 more registers: b64 kv1024's consumers-2
                    # kernel spills 2). H200 (PERF.md, sixteenth session, one
                    # process each): b4 kv8192 (V from registers) 0.85 us,
                    # b64 kv8192 0.3-0.5 and b32 kv8192 0.2-0.5 faster; with
                    # fp16 partials it made V from registers 1.4 us faster
                    # than V through shared memory on b32 kv1024, and one
                    # consumer warpgroup 0.4 us faster than two on b64
                    # kv1024; b256 kv8192 2.6 us slower, b256 kv1024 tied:
                    # specs choose per shape.
                    "v_lookahead": False,
                    # v_row_pairs (v_buffers 0): V's fp8 bytes of KV rows 2t
                    # and 2t + 1 paired (two byte permutes a 8 elements)
                    # before the fp8 -> fp16 conversion, so that every
                    # converted register is the pair of rows the wgmma
                    # operand takes, where converting first pairs them with a
                    # permute a register after (sm90 loop 1,040 -> 970
                    # instructions on b4 kv8192, outputs bit-identical). H200
                    # (PERF.md, twenty-second session, two one-process runs,
                    # every copy): b4 kv8192 0.23-0.3 us, b32 kv8192
                    # 0.12-0.45, b256 kv1024 0.12-0.18, b32 kv1024 0.1
                    # faster; b64 kv1024 0.08-0.1 and b256 kv8192 0.9 slower,
                    # b64 kv8192 tied: specs choose per shape.
                    "v_row_pairs": False,
                    # v_row_swap (v_buffers 0): rows 2 and 3 of every 4
                    # exchanged in V's shared-memory view and in P's store
                    # (the PV wgmma's K index meets the same KV row in both).
                    # V's 16-byte operand loads read rows 2t and 2t + 1 in
                    # lane t of a quadrant: unswapped, a quarter-warp reads
                    # rows of one parity, which the 64-byte swizzle keeps in
                    # one half of the bank line, a 2-way conflict on every
                    # load; swapped in odd lanes, both halves. H200 (PERF.md,
                    # twenty-fourth session): b256 kv1024's shared bank
                    # conflicts 1,078,021 -> 30,345 (ncu), outputs
                    # bit-identical; one process, two copies each: b256
                    # kv1024 0.4, b32 kv1024 0.2, b64 kv1024 0.2, b32 kv8192
                    # 0.2, b4 kv8192 0.1 us faster; b64 kv8192 0.2-0.3 and
                    # b256 kv8192 2.8-4.2 us slower in two runs: specs choose
                    # per shape.
                    "v_row_swap": False,
                    # pv_format (v_buffers 0, fp8 KV): the PV product's
                    # wgmmas: fp16 (V converted) or fp8 (V as it is, P
                    # rounded to e4m3: half the wgmmas, 1-2e-2 of relative
                    # error, gen check's bound for rounded P; generator/core/
                    # backends/gluon.py). Specs choose per shape.
                    "pv_format": "fp16",
                    # v_early (pv_format fp8): each tile's first PV group of
                    # V rows (the transposed matrix loads) issued before the
                    # softmax instead of after P's barrier, so that the
                    # group's wgmmas wait only for their byte permutes.
                    # H200 (PERF.md, twenty-sixth session, three one-process
                    # runs): b64 kv1024 0.2-0.3 us faster; b256 kv8192
                    # 0.25-0.3 slower, the others within noise: specs choose
                    # per shape.
                    "v_early": False,
                    # ptxas's register cap per thread (0: its own choice); 168
                    # lets three 4-warp programs share an SM.
                    "max_registers": 0,
                    # pdl: the merge kernel is a programmatic dependent of the
                    # attention kernel, which lets it launch from its start.
                    "pdl": True,
                    # speculate: Q's loads and the ring's first tiles go out for
                    # the keyed layout (query row = batch element, segments
                    # kv_len apart) before the indptr loads land; redone
                    # where they differ. About 1 us off the split shapes on
                    # the H200, 0-0.7 us slower on the one-pass b256 shapes
                    # (PERF.md): specs choose it per shape.
                    "speculate": False,
                    # tma_tile: a KV tile's 8 latent chunks in one TMA copy (a
                    # 3-D descriptor over the (chunks, rows, 64) view), the
                    # rope chunk in another, instead of nine copies, each of
                    # which Triton follows with a CTA barrier (SASS loop 897
                    # -> 775 instructions). H200: b256 kv8192 284.5 against
                    # 306.2 us, 0.3-2.4% off the other shapes.
                    "tma_tile": True,
                    # stagger: each program reads its tiles in an order rotated
                    # by its batch index, so that programs started together do
                    # not stream the same offsets of their segments in step.
                    # H200: b32 kv8192 and b64 kv8192 2.7 / 3.4 us slower, the
                    # rest within noise (PERF.md).
                    "stagger": False,
                    # lazy_rescale: the running max, and with it the rescale of
                    # the 8 output parts and the row sums, moves only when a
                    # score passes it by more than 8 (log2 units; P then stays
                    # below 256, exact in fp16 and fp32 sums): FlashAttention
                    # 4's trick. P is made with the max as it stands and each
                    # KV row's "passes" flag goes to shared memory behind P's
                    # own CTA barrier, so a tile that keeps the max skips the
                    # cross-warp max (a second barrier), the rescale and P's
                    # second pass; P is double-buffered. The output and
                    # log-sum-exp are unchanged. H200 (PERF.md, seventeenth
                    # session): b64 kv1024 0.6-0.7 us and b32 kv1024 0.25 us
                    # faster in two one-process runs; b4 kv1024 (one tile)
                    # 0.1-0.3 us slower; the consumers-2 shapes 0.8-1.1 us
                    # and b256 kv8192 1.5-2.5 us slower; the rest tied. (The
                    # first version, which still waited for the tile's
                    # cross-warp max, was no faster anywhere.)
                    "lazy_rescale": False,
                    # late_fill: the prologue requests only each ring's first
                    # tile; the ring's later stages go out once that tile is
                    # in, so that every program's first tile arrives sooner
                    # (its scores start while the rest stream). The tile order
                    # and the output are unchanged. H200 (PERF.md,
                    # 2026-12-01): faster in each of three one-process runs
                    # on b4 kv8192 and b32 kv1024 (0.1-1.5 us), and on b64
                    # kv1024 (0.2-0.5 us, fifteenth session); mixed or tied
                    # on the other shapes.
                    "late_fill": False,
                    # q_fill (late_fill, consumers 1): the ring's second tile
                    # goes out as soon as Q is in shared memory, before the
                    # first tile lands; the later stages once it is in (as
                    # late_fill). Requested all at once, every program's
                    # tiles arrive interleaved and each first tile lands late
                    # in the burst; spaced so, the grid's first tiles come in
                    # before its second ones. The tile order and the output
                    # are unchanged. H200 (PERF.md, twenty-third session):
                    # b4 kv8192 0.3-0.4 us and b32 kv1024 0.1-0.4 us faster
                    # than late_fill off in two one-process runs, every copy
                    # (late_fill alone 0.35-0.7 us slower there); b64 kv1024
                    # and b256 kv1024 tied, b256 kv8192 0.6 us slower.
                    "q_fill": False,
                    # dv_split: programs per split, each computing 512 /
                    # dv_split of the output dims from the same tiles (the
                    # scores and softmax run in each): with idle SMs, a
                    # shorter chain per tile and half the partial each. Needs
                    # V through shared memory (v_buffers 1 or 2) or V from
                    # registers with pv_format fp8 (each program loads only
                    # its half's V), and one warpgroup. H200 (PERF.md,
                    # 2026-12-01): b4 kv1024 (64 programs on 132 SMs)
                    # 0.24-0.61 us faster on average in three one-process
                    # runs, outputs bit-identical; 0.8-4.0 us slower (one
                    # run) on b4 kv8192, b32 kv1024 and b64 kv1024, whose
                    # grids already cover the SMs (1.2-5.5 us slower on the
                    # register path too, twenty-sixth session).
                    "dv_split": 1,
                    # claim_tiles: the tiles of a row are not split among its
                    # programs in advance: each warpgroup starts with its
                    # first ring's worth, then a producer warp per ring claims
                    # the row's next tile from a counter as the ring frees a
                    # slot, so that faster consumers take more tiles and the
                    # row's consumers end together. Needs consumers 2 and
                    # merge barrier (the counter is reset once the row has
                    # merged). The output's rounding depends on which
                    # consumer took which tile. H200 (PERF.md, 2026-12-01,
                    # eleventh session): b32 kv8192 and b64 kv8192 1.45-2.0
                    # us faster in two one-process runs; b64 kv1024 0.3 us
                    # slower (four tiles a warpgroup: little to balance).
                    "claim_tiles": False,
                    # early_refill: with V from registers, a ring slot's next
                    # tile is requested as soon as the slot's last V rows are
                    # converted (under the tile's third group of PV wgmmas),
                    # not once the tile is done, so that it lands about half
                    # a tile sooner. The tile order and the output are
                    # unchanged. H200 (PERF.md, seventeenth session): b32
                    # kv1024 and b64 kv1024 0.2-0.25 us faster in two
                    # one-process runs, every copy; b256 kv8192 1.3 us
                    # slower; the others tied.
                    "early_refill": False,
                    # compact_lse: the barrier merge loads every split's
                    # log-sum-exps in one 16-byte load a thread and moves them
                    # to the merge's layout through shared memory, instead of
                    # each thread loading its heads' values of every split.
                    # With many splits all of a row's programs pass the
                    # barrier together and each reads the row's whole
                    # log-sum-exp block: 4 heads of one split a request, so
                    # every line of the block is asked for 256 times on b4
                    # kv8192. H200 (PERF.md, twentieth session): b4 kv8192
                    # 0.28-0.35 us and b32 kv8192 0.1-0.15 us faster in two
                    # one-process runs, every copy; b4 kv1024 and b32 kv1024
                    # tied; b64 kv1024 and b64 kv8192 (two splits) 0.05-0.08
                    # us slower (one more CTA barrier, nothing to spread).
                    "compact_lse": False,
                    # merge_poll: how a program waiting at the barrier merge
                    # polls its row's counter. "atomic": an acquire atomic
                    # add of 0 by one thread, its result handed to the others
                    # through shared memory and a CTA barrier every poll;
                    # "load": every warp polls with an acquire load
                    # (ld.acquire.gpu), no read-modify-write queued beside
                    # the arrivals still to come. H200 (PERF.md,
                    # twenty-seventh session, three one-process runs): b4
                    # kv8192 (32 programs a counter) 0.17-0.22 us faster;
                    # b32 kv1024 and b64 kv1024 0.3-0.36 us slower, the
                    # others within noise: specs choose per shape.
                    "merge_poll": "atomic",
                    # consumers: warpgroups that consume KV tiles. 2: a second
                    # warpgroup (a warp-specialised partition) takes every other
                    # tile through its own ring and P, with its own running
                    # max and output parts, folded into the first's through
                    # shared memory before the epilogue: two tile chains on
                    # an SM with one prologue, one partial and one merge share.
                    # Needs V from registers (v_buffers 0), fp8 KV, no stagger.
                    # H200 (PERF.md): 1.8-2.5% faster on b32 kv8192, b64 kv1024
                    # and b64 kv8192 at half the splits, in two runs; 4-9%
                    # slower on the 4-tile shapes (b4 kv8192, b32 kv1024).
                    "consumers": 1,
                    # merge: "kernel", a Triton merge kernel after the
                    # attention kernel (PDL when pdl is set); "barrier", no
                    # second launch: each split stores its partial, waits at a
                    # per-row barrier (a global counter) for the other splits,
                    # then merges 1 / splits of the output dims. Its programs
                    # wait for one another, so the kernel is a cooperative
                    # launch: all of them resident at once, or an error.
                    # H200: barrier 0.5-1.1 us faster on all six split shapes
                    # (PERF.md); the default stays kernel, which runs any grid
                    # (a barrier grid must fit the GPU at once: 264 programs
                    # of 83 KB on an H200).
                    "merge": "kernel",
                    # partials: the number type of the splits' partial outputs
                    # (merged from L2). fp16 halves their stores and the
                    # merge's loads; they hold the output in units of the KV
                    # scale (at most the fp8 maximum, far inside fp16's range)
                    # and the merge applies the scale: about 3e-4 relative
                    # rounding, against the 1e-2 strict bound. H200 (PERF.md,
                    # 2026-12-01, one process each against fp32): b32 kv8192
                    # and b64 kv8192 0.8-1.4 us faster in both runs, b64
                    # kv1024 and b4 kv8192 0.1-1.0, b32 kv1024 and b4 kv1024
                    # not faster. fp8 (e4m3fn) halves them again, at e4m3's
                    # rounding of every partial, about 2% of the output
                    # whatever the split count (H200, PERF.md, 2026-12-02:
                    # 0.1-0.5 us faster on all six split shapes; gen check's
                    # strict error at most 2.8e-2 on b4 kv1024, b4 kv8192,
                    # b32 kv8192 and b64 kv8192, but 3.1-3.4e-2, over the
                    # fp8-P bound, on b32 kv1024 and b64 kv1024, whose P
                    # rounding already costs 2.0-2.3%).
                    # fp32 stays the default: MXFP4's partials are not
                    # bounded that way.
                    "partials": "fp32",
                    # l2_policy: the L2 cache policy the KV tiles' TMA loads
                    # carry (createpolicy.fractional, whole share): "none"
                    # (no hint), "evict_first" or "evict_last". Under the
                    # benchmark's L2 clear every line read first evicts one
                    # of the clear's modified lines. H200 (PERF.md,
                    # 2026-12-01, thirteenth session; one process each,
                    # medians): evict_first 0.8-2.2 us faster on b32 kv8192,
                    # b64 kv1024 and b256 kv1024 but 3-20 us slower on b64
                    # kv8192 and b256 kv8192 (ncu: it keeps 15-20 MB of the
                    # clear's lines from being written back); evict_last
                    # 0.4-1.0 us faster on b64 kv8192 in three runs, 0-1.3
                    # on the mid shapes, b256 kv8192 both ways; an explicit
                    # evict_normal hint slower everywhere. Specs choose per
                    # shape.
                    "l2_policy": "none",
                    "reduce_block_dv": 128,
                    "q_absmax": 6.0,
                })},
                required=("splits",),
                # The pipeline's shape (gen tune tries the current entry, then
                # each one-field change, then the product in this order: the
                # first run of 2026-11-30 ran out of time before the winner,
                # two stages with V in 4 parts, when overlap came first);
                # splits, warps and the merge width were settled by hand in
                # PERF.md's runs: give an entry a `tune:` to revisit them.
                # v_lookahead moved four shapes by 0.3-1.4 us (sixteenth
                # session); with V through shared memory the spec stage
                # rejects it, as it rejects overlap with a one-tile ring.
                search_space={
                    "num_stages": (2, 1, 3),
                    "v_parts": (8, 4, 2),
                    "v_buffers": (0, 1, 2),
                    "overlap_scores": (False, True),
                    "v_lookahead": (False, True),
                },
                choices={
                    "merge": ("kernel", "barrier"),
                    "partials": ("fp32", "fp16", "fp8"),
                    "l2_policy": ("none", "evict_first", "evict_last"),
                    "merge_poll": ("atomic", "load"),
                    "pv_format": ("fp16", "fp8"),
                    "num_warps": (4, 8),
                    # The KV ring (36 KB a stage) and V in fp16 (64 KB / v_parts
                    # per buffer; v_buffers 0: none, V feeds the wgmma from
                    # registers) must fit the 227 KB a program may have.
                    "num_stages": (1, 2, 3, 4),
                    "v_parts": (1, 2, 4, 8),
                    "v_buffers": (0, 1, 2),
                    "consumers": (1, 2),
                    "dv_split": (1, 2),
                },
                field_rules=gluon.field_rules,
                stdlib=("functools",),
                # One query token and 16 heads: the wgmma N the kernel is laid out for.
                max_q_seq_len=1,
                heads_multiple=16,
                max_num_heads=16,
                # Gluon has no interpreter: only a Hopper GPU runs it.
                runs_on_cpu=False,
                timeline_stamps=True,
                # Measured on the H200: 1.2e-3 to 1.8e-3 against float32 math on
                # the same fp8 operands (uneven and empty segments included).
                strict_bound=1e-2,
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
