"""gluon: Hopper MLA decode in Gluon (templates/backends/gluon.py.j2).

One kernel per shape, 4 warps. Each 64-row KV tile (64 x 576 fp8) streams by
TMA into a shared-memory ring; wgmma computes the scores with the KV rows as
M (S^T = K Q^T, e4m3 K x e4m3 Q: 16 heads need no padding to M = 64), the
softmax rescales lazily (only when a score passes the running max by 2^8)
and rounds P to e4m3, and the output is computed transposed (O^T = V^T P^T,
8 parts of 64 dims, fp8 wgmmas) with V's bytes loaded from the ring straight
into the wgmma's register operand. Splits store partial outputs and their
log-sum-exps, then wait for one another at a per-row barrier and merge a share
of the output dims each, in split order: one launch, the same bits every call.

The spec fields, and what each changes in the kernel (its constexpr):

- splits (NUM_SPLITS): programs per batch element, each a contiguous run of
  whole tiles; with more than one, partials and the barrier merge (a
  cooperative launch: every program must be resident at once).
- num_stages (STAGES): tiles in flight per ring.
- consumers (CONSUMERS) 2: a second warpgroup takes every other tile through
  its own ring and P; its results are folded into the first's before the
  epilogue (two tile chains with one prologue, partial and merge share).
- dv_split (DV_SPLIT) 2: two programs a split, each with the split's tiles,
  scores and softmax but half of V's output dims.
- speculate (GUESS_KV_LEN): Q's loads and the first tiles go out for the
  keyed layout (segments kv_len apart) before the indptrs land; redone where
  the indptrs say otherwise.
- l2_policy (L2_POLICY): the L2 cache policy of every TMA load (the benchmark's
  L2 clear leaves it full of modified lines); the generated file adds it to
  the PTX through a Triton compile hook.
- early_refill (EARLY_REFILL): a ring slot's next tile requested as soon as the
  slot's V rows are in registers, not after the tile's PV product.
- v_early (V_EARLY): each tile's first V rows loaded before the softmax, not
  after P's barrier.
- partials: the number type of the partial outputs (fp32, fp16 or e4m3fn), held
  in units of the KV scale (at most the fp8 maximum), which the merge applies:
  fp16 rounds about 3e-4 of the output, e4m3 about 2% (its relative precision
  is the same at any scale, and a split's partial is larger than the merged
  output by about the square root of the splits, so it does not average down).
- q_absmax: Q's static fp8 scale (q_absmax / 448), passed at launch (as its
  inverse, and times the scores' scale).
- kv_format mxfp4: each packed tile (288 bytes a row) is decoded into one e4m3
  tile before its scores, each 32-element block scaled by 2^-k (k its
  exponent's distance below its row's largest), the rows' largest exponents
  applied to the scores and P (the same wgmmas as fp8 KV; the kernel reads the
  format from the descriptor's type).

The choices above are the ones that paid on at least one committed H200 entry
in a one-process measurement; PERF.md's decisions table lists the ones
measured and removed, with the commit that removed them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from generator.core.contract import FP8_MAX, KV_LORA, QK_DIM, SM_SCALE
from generator.core.occupancy import SM90_SMEM_PER_BLOCK as SMEM_PER_PROGRAM
from generator.core.plan import BackendPlan, Const, Launch, RunnerInput

# KV rows per tile: the M of the score wgmma (64 per warpgroup).
BLOCK_N = 64
HEADS = 16
# exp(x) = exp2(x * LOG2E): the kernels' softmax is in base 2
_LOG2E = 1.4426950408889634

# the partial outputs' torch dtype per `partials` (the kernel casts to and
# from the buffer's element type)
_PART_DTYPE = {"fp32": "float32", "fp16": "float16", "fp8": "float8_e4m3fn"}
# partial types bounded like fp8 values (MXFP4's partials are not)
_NARROW_PARTIALS = ("fp16", "fp8")

# gen check's strict bound for a runner whose partials are e4m3 (P in e4m3
# too). e4m3's rounding of every partial adds about 2.1% of the output in
# quadrature to P's 1.0-2.3%, whatever the split count (a split's partial is
# larger than the merged output by about the square root of the splits, so it
# does not average down; a float32 model of gen check's inputs reproduced the
# H200's errors to the third digit): 2.4-2.85e-2 measured over 4 seeds, against
# registry.STRICT_BOUND_PV_FP8's 3e-2. This bound still fails what the strict
# rule is there to catch: an all-zero output (1.0), a wrong scale, and one
# skipped 64-row tile, which adds 0.19 at kv 1024 and 0.037 at kv 8192 in
# quadrature (sqrt(0.0285^2 + 0.037^2) = 0.047 > 0.035).
STRICT_BOUND_PARTIALS_FP8 = 3.5e-2

# The kernel's runtime parameters and the launch's arguments, in order.
_PARAMS = ("Q", "kv_desc", "kv_tile_desc", "KV_SCALE", "QO_INDPTR", "KV_INDPTR", "OUT")
_ARGS = ("kv_scale", "qo_indptr", "kv_indptr", "out")  # after q and the KV's two descriptors
_SPLIT_PARAMS = ("PART_O", "PART_LSE", "COUNTERS")
_SPLIT_ARGS = ("part_o", "part_lse", "counters")
_MX_PARAMS = ("MX_TABLES", "stride_sc_r", "stride_sc_c", "KV_ROWS")
_MX_ARGS = ("_mla_gluon_mx_tables(q.device)", "kv_scale.stride(0)", "kv_scale.stride(1)", "kv.shape[0]")


@dataclass(frozen=True)
class GluonPlan:
    splits: int
    # the buffers the runner asks for (_mla_gluon_buffers): its query rows, the
    # partials' torch dtype (None without splits) and the names they go by
    rows: int
    part_dtype: str | None
    buffer_names: tuple[str, ...]
    # Q's static scale as the kernel takes it: its inverse (Q's quantisation
    # multiplies) and times the scores' scale (sm_scale, in log2 units)
    q_inv: float
    q_qk: float
    # KV read as MXFP4 (packed e2m1 + e8m0 block scales), decoded per tile
    mxfp4: bool
    # the L2 cache policy of the KV tiles' TMA loads ("" for none)
    l2_policy: str
    # the shape's kernel: its parameters, what it hands the body for the
    # body's first parameters (stand-ins where the shape has no partials),
    # its MXFP4 parameters and the runner's launch arguments
    params: tuple[str, ...]
    body_args: tuple[str, ...]
    mx_args: tuple[str, ...]
    launch_args: tuple[str, ...]


def smem_bytes(cfg: Mapping[str, Any]) -> int:
    """Shared memory of the attention kernel: the KV ring(s), Q in e4m3, P (two,
    e4m3) and the lazy rescale's flags; MXFP4: a ring of packed tiles, one
    decoded tile and its rows' exponents; consumers 2: a ring and P per
    warpgroup, and the second's output parts, running max and row sums on
    their way to the first."""
    consumers = 2 if cfg.get("consumers") == 2 else 1
    stages = cfg["num_stages"]
    if cfg.get("kv_format") == "mxfp4":
        ring = stages * BLOCK_N * QK_DIM // 2 + BLOCK_N * QK_DIM + 2 * BLOCK_N * 4
    else:
        ring = stages * BLOCK_N * QK_DIM
    p_and_flags = 2 * BLOCK_N * HEADS + 2 * BLOCK_N
    fold = (KV_LORA * HEADS + 2 * HEADS) * 4 if consumers > 1 else 0
    return consumers * (ring + p_and_flags) + HEADS * QK_DIM + fold


def _yaml(value: Any) -> str:
    """A field's value as a spec writes it."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _requirements(what: str, wants: Mapping[str, tuple[Any, Any]]) -> list[tuple[str, str]]:
    """(field, message) for each field whose value is not the one `what`
    needs: wants maps a field to (its value, the value needed)."""
    return [(field, f"{_yaml(value)}: {what} needs {field} {_yaml(allowed)}")
            for field, (value, allowed) in wants.items() if value != allowed]


def field_rules(cfg: Mapping[str, Any], fp8_format: str) -> list[tuple[str, str]]:
    """What the gluon kernel cannot combine: (field, message) per problem."""
    problems = []
    if fp8_format != "e4m3fn":
        problems.append(("kv_format", f"{cfg['kv_format']}: the gluon kernel's wgmmas read e4m3fn (fp8 on "
                                      f"Hopper), not the target's {fp8_format}"))
    mxfp4 = cfg["kv_format"] == "mxfp4"
    if mxfp4:
        problems += _requirements("kv_format mxfp4 (one decoded tile a program)",
                                  {"consumers": (cfg["consumers"], 1), "dv_split": (cfg["dv_split"], 1),
                                   "early_refill": (cfg["early_refill"], False)})
        if cfg["partials"] in _NARROW_PARTIALS:
            problems.append(("partials", f"{cfg['partials']}: MXFP4's partial outputs are not bounded by the fp8 "
                                         "maximum (allowed with kv_format mxfp4: fp32)"))
    if cfg["consumers"] == 2 and cfg["dv_split"] != 1:
        problems.append(("dv_split", f"{cfg['dv_split']}: consumers 2 (a second warpgroup for every other tile) "
                                     "needs dv_split 1"))
    used = smem_bytes(cfg)
    if used > SMEM_PER_PROGRAM:
        rings = "2 rings of " if cfg["consumers"] == 2 else ""
        problems.append(("num_stages", f"{cfg['num_stages']}: {rings}{cfg['num_stages']} stages take {used} bytes "
                                       f"of shared memory, more than the {SMEM_PER_PROGRAM} a program may have"))
    if KV_LORA % (cfg["splits"] * cfg["dv_split"]):
        per = f" x dv_split {cfg['dv_split']} programs" if cfg["dv_split"] > 1 else ""
        problems.append(("splits", f"{cfg['splits']} splits{per} cannot share the {KV_LORA} output dims evenly "
                                   "in the merge (allowed: a power of two, at most 512 / dv_split)"))
    return problems


def plan(runner: RunnerInput, cfg: Mapping[str, Any]) -> BackendPlan:
    _, kv_len, q_seq_len, num_heads = runner.key  # keyed shapes only (registry: not general)
    splits, mxfp4 = cfg["splits"], cfg["kv_format"] == "mxfp4"
    merge = splits > 1
    stem = f"mla_{runner.tag}_gluon" + ("_mxfp4" if mxfp4 else "") + (f"_split{splits}" if merge else "")
    q_scale = cfg["q_absmax"] / FP8_MAX[runner.fp8_format]
    l2_policy = "" if cfg["l2_policy"] == "none" else cfg["l2_policy"]
    batch, total_q = runner.sizes.batch, runner.sizes.total_q
    attend = Launch(
        kernel=stem,
        family="attend",
        constexprs=(
            Const("NUM_SPLITS", splits),
            Const("STAGES", cfg["num_stages"]),
            Const("CONSUMERS", cfg["consumers"]),
            Const("DV_SPLIT", cfg["dv_split"]),
            # the keyed layout, guessed before the indptrs land (one query row per batch element)
            Const("GUESS_KV_LEN", kv_len if cfg["speculate"] and q_seq_len == 1 else 0),
            Const("L2_POLICY", l2_policy),
            Const("EARLY_REFILL", cfg["early_refill"]),
            Const("V_EARLY", cfg["v_early"]),
        ),
        grid=(batch, splits * cfg["dv_split"]),
        # A waiting program holds its SM: the driver must place every program
        # at once (or refuse the launch) so that no split waits for one that
        # cannot start.
        options=(("num_warps", 4),) + ((("launch_cooperative_grid", True),) if merge else ()),
    )
    split_params = _SPLIT_PARAMS if merge else ()
    return BackendPlan(
        launches=(attend,),
        detail=GluonPlan(
            splits=splits, rows=total_q, part_dtype=_PART_DTYPE[cfg["partials"]] if merge else None,
            buffer_names=("out",) + (_SPLIT_ARGS if merge else ()), mxfp4=mxfp4, l2_policy=l2_policy,
            q_inv=1.0 / q_scale, q_qk=SM_SCALE * _LOG2E * q_scale,
            params=_PARAMS + split_params + (_MX_PARAMS if mxfp4 else ()) + ("q_inv", "q_qk"),
            body_args=_PARAMS + (split_params or ("OUT",) * len(_SPLIT_PARAMS)),
            mx_args=_MX_PARAMS,
            launch_args=("q.contiguous()", f"*_mla_gluon_{'mx' if mxfp4 else 'kv'}_desc(kv)") + _ARGS
            + (_SPLIT_ARGS if merge else ()) + (_MX_ARGS if mxfp4 else ())),
        q_scale=q_scale,
        # l2_policy: the generated file's PTX hook matches TMA loads with re.
        stdlib=("re",) if l2_policy else (),
        # P is rounded to e4m3 before the PV product (registry.STRICT_BOUND_PV_FP8).
        p_fp8=True,
        strict_bound=STRICT_BOUND_PARTIALS_FP8 if merge and cfg["partials"] == "fp8" else None,
    )
