"""gluon: Hopper MLA decode in Gluon (templates/backends/gluon.py.j2).

Each KV tile (64 rows x 576 fp8) streams by TMA into a shared-memory ring;
wgmma computes the scores with the KV rows as M (S^T = K Q^T, fp8 x fp8, so
16 heads need no padding to M = 64) and the output transposed
(O^T = V^T P^T, fp16, M = 512 / v_parts), V converted fp8 -> fp16 once per
element into shared memory (v_buffers 2: the next part converts while the
last part's wgmma runs; v_buffers 0: no fp16 copy, V^T loads from the fp8 ring
straight into the wgmma's register operand; overlap_scores: the next tile's score wgmmas run
under this tile's output parts). Splits write normalised partials and their
log-sum-exp; a Triton kernel merges them (merge: kernel; launched with
programmatic dependent launch when pdl is set, so that its launch overlaps the
attention kernel), or the splits merge them themselves (merge: barrier): each
waits at a per-row barrier until every split of its row has stored its
partial, then merges 1 / splits of the output dims, so that no second kernel
runs at all.

kv_format mxfp4: each tile's packed e2m1 bytes (64 x 288) stream by TMA into
their own ring; per tile the warps decode them to e4m3 in one shared-memory
tile (the fp8 path's layout), each 32-element block scaled by 2^-k where k is
its exponent's distance below the row's largest (the latent and rope dims
apart): a byte-permute lookup per four elements. The row's exponents scale
its scores and are folded into P (log2 added to the score before the
softmax's exponent, so P stays at most 1 in fp16), so the wgmmas and the
register-operand V path are the fp8 kernel's.

consumers 2: a second warpgroup (a warp-specialised partition) takes every
other tile of the program's split through its own ring and P buffer, with its
own running max, row sums and output parts; it hands them to the first
through shared memory (and an mbarrier), which folds them into its own before
the epilogue: two tile chains in one program, with one prologue, one partial
and one merge share.

late_fill: the prologue requests only the first tile of each ring; the
ring's later stages go out once that tile is in. q_fill: the ring's second
tile goes out once Q is in shared memory, before the first tile lands.

v_lookahead (v_buffers 0): the PV product's register operands are made 16 KV
rows at a time, each group converted while the previous group's wgmmas run;
with it, each group's fp8 bytes are loaded from the ring one group earlier,
so that the conversion does not wait for its shared-memory loads.

v_row_pairs (v_buffers 0): V's fp8 bytes are paired by KV rows (two byte
permutes per 8 elements) before the fp8 -> fp16 conversion, so that each
converted register is already the pair of rows the wgmma operand takes
(converting first takes a permute per register after).

v_row_swap (v_buffers 0): rows 2 and 3 of every 4 are exchanged in V's
shared-memory view and in P's store. Lane t of a quadrant loads rows 2t and
2t + 1 for the PV operand; unswapped, each 16-byte load of a quarter-warp
reads rows of one parity, which the 64-byte swizzle keeps in one half of the
bank line (a 2-way bank conflict); swapped, the odd lanes read their odd row
first and the loads cover the whole line. The PV wgmma's K index then meets
the same KV row in V and P, so the output is unchanged.

pv_format (v_buffers 0, fp8 KV): the PV product's wgmmas. fp16 (the
default): V converted to fp16, 64 x 16 x 16 wgmmas. fp8: 64 x 16 x 32 fp8
wgmmas, half as many: V^T's fp8 bytes go to the register operand as they
are, loaded as transposed 8 x 8 matrices of 16-bit dim pairs (ldmatrix
.trans, conflict-free under the ring's swizzle) and gathered 4 KV rows of a
dim to a register by one byte permute a register (no conversion); P is
rounded to e4m3 and stored K-major (heads, KV rows), as the fp8 wgmma's B
must be, in the K order of V's registers. e4m3's 3 mantissa bits cost 1-2e-2
of relative error against float32 (fp16 P: about 2e-3), so gen check holds
such a runner to its own strict bound (registry.STRICT_BOUND_PV_FP8, 3e-2).

v_early (pv_format fp8): each tile's first PV group of V rows (its
transposed matrix loads) is issued before the softmax instead of after P's
barrier, so that the group's wgmmas wait only for their byte permutes.

dv_split 2: each split is two programs with the same tiles, scores and
softmax, each multiplying and storing half of V's output dims (and, with
merge barrier, merging 512 / (2 x splits) of them). With V from registers
(pv_format fp8) a program loads only its half's 4 chunks of V.

claim_tiles: with consumers 2 and merge barrier, the tiles of a row are
handed out at run time. Each warpgroup's ring starts with its share of the
row's first tiles (warpgroup q of the row's 2 x splits takes tiles q,
q + 2 x splits, ...); then a producer warp per ring (a warp-specialised
partition) waits for the consumer to free a slot, claims the row's next tile
from a per-row counter (an atomic add) and requests it, writing the tile's
index beside the slot; the consumer reads it once the slot is full and stops
at the first index past the row. The row's consumers end together however
their SMs' rates differ; once the row has merged its first split resets the
counter.

early_refill: on the V-from-registers path, a ring slot's next tile is
requested as soon as the slot's last V rows are in registers and converted
(under the tile's third group of PV wgmmas), not after the tile.

compact_lse: with merge barrier, every split's log-sum-exps are loaded
once in a compact layout (a 16-byte load a thread) and moved to the merge's
layout through shared memory, instead of each thread loading its heads'
values of every split (4 heads of one split a request).

merge_poll load: with merge barrier, a waiting program polls its row's
counter with an acquire load from every warp (ld.acquire.gpu, by inline asm)
instead of one thread's acquire atomic add of 0, whose result reaches the
other threads through shared memory and a CTA barrier each poll.

l2_policy evict_first / evict_last: every TMA load of the kernel carries
that L2 cache policy. Gluon's TMA copy (Triton 3.6) takes no cache hint, so
the kernel marks its PTX (an empty inline asm with a comment) and the
generated file installs a compile-stage hook (Triton's
knobs.runtime.add_stages_inspection_hook) that adds `.L2::cache_hint` and a
createpolicy of that priority to each TMA load of a kernel so marked.

partials fp16: the splits store their partial outputs in fp16, divided by the
KV scale (so at most the fp8 maximum in magnitude: no overflow whatever the
cache's scale), and the merge multiplies the scale back: half the bytes
through L2 at the end of every split. fp8 KV only. partials fp8: the same in
e4m3fn (whose largest value is the fp8 maximum), a quarter of fp32's bytes,
at the price of e4m3's rounding on every partial (about 2% of the output,
relative, whatever the split count: a split's partial is larger than the
merged output, so its rounding does not average down); e4m3fn targets only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from generator.core.backends.triton import TL_FP8
from generator.core.contract import FP8_MAX, KV_LORA, QK_DIM
from generator.core.occupancy import SM90_SMEM_PER_BLOCK as SMEM_PER_PROGRAM
from generator.core.plan import BackendPlan, Buffer, Const, Dtype, Launch, RunnerInput

# KV rows per tile: the M of the score wgmma (64 per warpgroup).
BLOCK_N = 64
# The KV tile is loaded as column chunks of this width (a TMA box is at most
# 256 wide; 64 fp8 bytes is one 64-byte swizzle row).
DCHUNK = 64


@dataclass(frozen=True)
class GluonPlan:
    splits: int
    buffers: tuple[Buffer, ...]
    # The merge kernel waits for the attention kernel with griddepcontrol;
    # the attention kernel lets it launch from its start.
    pdl: bool
    # The target's fp8 type.
    fp8: Dtype
    # One TMA copy per KV tile (a 3-D descriptor), not one per 64-column chunk.
    tma_tile: bool
    # merge: barrier: the splits of a row wait for one another, so the
    # attention kernel is a cooperative launch (every program resident at
    # once, or the launch fails).
    barrier: bool
    # KV read as MXFP4 (packed e2m1 + e8m0 block scales), decoded per tile.
    mxfp4: bool
    # The L2 cache policy of the KV tiles' TMA loads ("" for none).
    l2_policy: str


# the partial outputs' torch dtype per `partials` (the kernels cast to and
# from the buffer's element type)
_PART_DTYPE = {"fp32": "float32", "fp16": "float16", "fp8": "float8_e4m3fn"}
# the partial types held in units of the KV scale (bounded by the fp8
# maximum, so fp8 KV only), which the merge applies
_KV_UNIT_PARTIALS = ("fp16", "fp8")


def smem_bytes(cfg: Mapping[str, Any]) -> int:
    """Shared memory of the attention kernel's buffers: the KV ring, fp16 V
    (v_buffers parts of 512 / v_parts dims), fp8 Q, fp16 P, for the 16 heads
    the kernel is laid out for (the registry's max_num_heads); MXFP4: a ring
    of packed tiles, one decoded fp8 tile and the tile's row exponents;
    pv_format: P's bytes; consumers 2: a ring and a P per warpgroup, and the second's 8 output parts,
    running max and row sums on their way to the first; claim_tiles: each
    slot's tile index; lazy_rescale: a second P and the rescale flags."""
    heads = 16
    stages, v_parts, v_bufs = cfg["num_stages"], cfg["v_parts"], cfg["v_buffers"]
    # (an invalid count is reported on its own, by the registry's choices)
    consumers = 2 if cfg.get("consumers") == 2 else 1
    if cfg.get("kv_format") == "mxfp4":
        ring = stages * BLOCK_N * QK_DIM // 2 + BLOCK_N * QK_DIM + 2 * BLOCK_N * 4
    else:
        ring = stages * BLOCK_N * QK_DIM
    fold = (KV_LORA * heads + 2 * heads) * 4 if consumers > 1 else 0
    claimed = consumers * stages * 4 if cfg.get("claim_tiles") else 0  # each slot's tile index
    # P, fp16 or (pv_format fp8) e4m3 (lazy_rescale: two, and a byte a KV row of flags for two tiles)
    p_one = BLOCK_N * heads * (1 if cfg.get("pv_format") == "fp8" else 2)
    p_bytes = p_one * 2 + 2 * BLOCK_N if cfg.get("lazy_rescale") else p_one
    return (consumers * (ring + p_bytes) + v_bufs * BLOCK_N * (KV_LORA // v_parts) * 2
            + heads * QK_DIM + fold + claimed)


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
    if cfg["v_buffers"] > cfg["v_parts"]:
        problems.append(("v_buffers", f"{cfg['v_buffers']} buffers for {cfg['v_parts']} V part(s): "
                                      f"at most v_parts (allowed: 1 to {cfg['v_parts']})"))
    if cfg["v_buffers"] == 0 and cfg["v_parts"] in (1, 2, 4):
        problems.append(("v_buffers", f"0 (V from the fp8 ring as the wgmma's register operand) needs "
                                      f"v_parts 8, not {cfg['v_parts']} (allowed with v_parts "
                                      f"{cfg['v_parts']}: 1 to {cfg['v_parts']})"))
    elif cfg["v_buffers"] == 0 and cfg["overlap_scores"]:
        problems.append(("overlap_scores", "needs V in a shared-memory buffer (v_buffers 1 or 2), "
                                           "not V from registers (v_buffers 0)"))
    if cfg["v_lookahead"] and cfg["v_buffers"] != 0:
        problems.append(("v_lookahead", f"true loads V's register operands a group ahead: it needs V from "
                                        f"registers (v_buffers 0), not v_buffers {cfg['v_buffers']} "
                                        f"(allowed with v_buffers {cfg['v_buffers']}: false)"))
    if cfg["v_row_pairs"] and cfg["v_buffers"] != 0:
        problems.append(("v_row_pairs", f"true pairs the rows of V's register operands: it needs V from "
                                        f"registers (v_buffers 0), not v_buffers {cfg['v_buffers']} "
                                        f"(allowed with v_buffers {cfg['v_buffers']}: false)"))
    if cfg["v_row_swap"] and cfg["v_buffers"] != 0:
        problems.append(("v_row_swap", f"true swaps rows in V's register-operand loads and in P: it needs V "
                                       f"from registers (v_buffers 0), not v_buffers {cfg['v_buffers']} "
                                       f"(allowed with v_buffers {cfg['v_buffers']}: false)"))
    if cfg["pv_format"] != "fp16":
        problems += _requirements(
            f"pv_format {cfg['pv_format']} (the PV product as fp8 wgmmas, V's register operand in fp8)",
            {"v_buffers": (cfg["v_buffers"], 0), "kv_format": (cfg.get("kv_format", "fp8"), "fp8"),
             "v_row_pairs": (cfg["v_row_pairs"], False), "v_row_swap": (cfg["v_row_swap"], False)})
    if cfg["v_early"]:
        problems += _requirements(
            "v_early (the first PV group's V rows loaded before the softmax)",
            {"pv_format": (cfg["pv_format"], "fp8"), "prefetch_v": (cfg["prefetch_v"], False)})
    if cfg.get("partials") == "fp8" and fp8_format != "e4m3fn":
        problems.append(("partials", f"fp8: the partials are e4m3fn, whose largest value is the fp8 maximum; "
                                     f"the target's {fp8_format} holds less (allowed with fp8_format "
                                     f"{fp8_format}: fp32, fp16)"))
    if cfg["v_row_pairs"] and fp8_format != "e4m3fn":
        problems.append(("v_row_pairs", f"true converts V with cvt.rn.f16x2.e4m3x2, which reads e4m3fn, not "
                                        f"the target's {fp8_format} (allowed with fp8_format {fp8_format}: false)"))
    if cfg["overlap_scores"] and cfg["num_stages"] < 2:
        problems.append(("overlap_scores", "needs num_stages 2 or more: the next tile's scores "
                                           "read it while this tile's slot is still in use"))
    if cfg["num_warps"] == 8 and cfg["v_parts"] > 4:
        problems.append(("v_parts", f"{cfg['v_parts']} parts of {KV_LORA // cfg['v_parts']} dims are "
                                    "fewer rows than two warpgroups' wgmma (128) for num_warps 8 "
                                    "(allowed: 1, 2, 4)"))
    if cfg.get("kv_format") == "mxfp4" and cfg["v_buffers"] != 0:
        problems.append(("v_buffers", f"{cfg['v_buffers']}: MXFP4 KV feeds V to the wgmma from its "
                                      "decoded fp8 tile (allowed with kv_format mxfp4: 0)"))
    if cfg.get("consumers") == 2:
        problems += _requirements(
            "consumers 2 (a second warpgroup for every other tile)",
            {"v_buffers": (cfg["v_buffers"], 0), "kv_format": (cfg.get("kv_format", "fp8"), "fp8"),
             "stagger": (cfg["stagger"], False), "num_warps": (cfg["num_warps"], 4)})
    if cfg["dv_split"] == 2:
        if cfg["v_buffers"] == 0 and cfg["pv_format"] != "fp8":
            problems.append(("v_buffers", "0: dv_split 2 (two programs a split, each with half of V's "
                                          "dims) takes V from registers only with pv_format fp8 (allowed: "
                                          "1, 2, or 0 with pv_format fp8)"))
        if cfg["consumers"] != 1:
            problems.append(("consumers", f"{cfg['consumers']}: dv_split 2 (two programs a split, each with "
                                          f"half of V's dims) needs consumers 1"))
        if cfg["v_parts"] % 2:
            problems.append(("v_parts", f"{cfg['v_parts']}: dv_split 2 gives each program half of the V "
                                        f"parts (allowed: 2, 4, 8)"))
    if cfg["claim_tiles"]:
        problems += _requirements(
            "claim_tiles (tiles claimed at run time by a producer warp per ring)",
            {"consumers": (cfg["consumers"], 2), "merge": (cfg["merge"], "barrier"),
             "late_fill": (cfg["late_fill"], False)})
        if cfg["splits"] < 2 and cfg["merge"] == "barrier":
            problems.append(("splits", "1: claim_tiles shares a row's tiles among its splits and resets "
                                       "their counter at the merge barrier (allowed: 2 or more)"))
    if cfg["early_refill"]:
        problems += _requirements(
            "early_refill (a slot refilled once its last V rows are converted)",
            {"v_buffers": (cfg["v_buffers"], 0), "claim_tiles": (cfg["claim_tiles"], False),
             "kv_format": (cfg.get("kv_format", "fp8"), "fp8")})
    # compact_lse and merge_poll load change the barrier merge's wait and loads
    barrier_merge = cfg["merge"] == "barrier" and cfg["splits"] >= 2
    if cfg["compact_lse"] and not barrier_merge:
        problems.append(("compact_lse", "true loads the log-sum-exps of the barrier merge: it needs merge "
                                        "barrier and 2 or more splits (allowed here: false)"))
    if cfg["merge_poll"] == "load" and not barrier_merge:
        problems.append(("merge_poll", "load polls the barrier merge's counter: it needs merge barrier and 2 or "
                                       "more splits (allowed here: atomic)"))
    if cfg["late_fill"] and cfg["num_stages"] < 2:
        problems.append(("late_fill", f"true needs num_stages 2 or more (a ring with later stages to "
                                      f"request late), not {cfg['num_stages']}"))
    if cfg["q_fill"]:
        problems += _requirements(
            "q_fill (the ring's second tile requested once Q is in, before the first lands)",
            {"late_fill": (cfg["late_fill"], True), "consumers": (cfg["consumers"], 1)})
    if cfg["late_fill"] and cfg.get("kv_format") == "mxfp4":
        problems.append(("late_fill", "true: MXFP4 KV decodes each tile as it lands and requests the "
                                      "next itself (allowed with kv_format mxfp4: false)"))
    if cfg.get("partials") in _KV_UNIT_PARTIALS and cfg.get("kv_format") == "mxfp4":
        problems.append(("partials", f"{cfg['partials']}: MXFP4's partial outputs are not bounded by the fp8 "
                                     "maximum (allowed with kv_format mxfp4: fp32)"))
    used = smem_bytes(cfg)
    if used > SMEM_PER_PROGRAM:
        rings = "2 rings of " if cfg.get("consumers") == 2 else ""
        problems.append(("num_stages", f"{rings}{cfg['num_stages']} stages with v_parts {cfg['v_parts']} and "
                                       f"v_buffers {cfg['v_buffers']} take {used} bytes of shared "
                                       f"memory, more than the {SMEM_PER_PROGRAM} a program may have"))
    if cfg["merge"] == "barrier" and KV_LORA % (cfg["splits"] * cfg["dv_split"]):
        per = f" x dv_split {cfg['dv_split']} programs" if cfg["dv_split"] > 1 else ""
        problems.append(("splits", f"{cfg['splits']} splits{per} cannot share the {KV_LORA} output dims "
                                   "evenly for merge 'barrier' (allowed: a divisor of 512 such as "
                                   "2, 4, 8, 16, 32, 64)"))
    return problems


def plan(runner: RunnerInput, cfg: Mapping[str, Any]) -> BackendPlan:
    _, kv_len, q_seq_len, num_heads = runner.key  # keyed shapes only (registry: not general)
    splits = cfg["splits"]
    merge = splits > 1
    barrier = merge and cfg["merge"] == "barrier"
    part_kv_units = merge and cfg["partials"] in _KV_UNIT_PARTIALS
    pdl = merge and cfg["pdl"] and not barrier
    stem = (f"mla_{runner.tag}_gluon" + ("_mxfp4" if cfg["kv_format"] == "mxfp4" else "")
            + (f"_split{splits}" if merge else ""))
    q_scale = cfg["q_absmax"] / FP8_MAX[runner.fp8_format]
    l2_policy = "" if cfg["l2_policy"] == "none" else cfg["l2_policy"]
    batch, total_q = runner.sizes.batch, runner.sizes.total_q
    attend = Launch(
        kernel=stem,
        family="attend",
        constexprs=(
            Const("NUM_HEADS", num_heads),
            Const("NUM_SPLITS", splits),
            Const("STAGES", cfg["num_stages"]),
            Const("V_PARTS", cfg["v_parts"]),
            Const("V_BUFS", cfg["v_buffers"]),
            Const("OVERLAP", cfg["overlap_scores"]),
            Const("PREFETCH_V", cfg["prefetch_v"] and cfg["v_buffers"] == 0),
            Const("V_AHEAD", cfg["v_lookahead"]),
            Const("V_PAIRS", cfg["v_row_pairs"]),
            Const("V_SWAP", cfg["v_row_swap"]),
            Const("PV_FP8", cfg["pv_format"] == "fp8"),
            Const("V_EARLY", cfg["v_early"]),
            Const("Q_SCALE", q_scale),
            Const("FP8", Dtype(TL_FP8[runner.fp8_format])),
            Const("WRITE_PARTIAL", merge),
            Const("PDL_TRIGGER", pdl),
            Const("MERGE_BARRIER", barrier),
            # The keyed layout, guessed before the indptrs land (one query row per batch element).
            Const("GUESS_KV_LEN", kv_len if cfg["speculate"] and q_seq_len == 1 else 0),
            Const("TMA_TILE", cfg["tma_tile"]),
            Const("STAGGER", cfg["stagger"]),
            Const("LAZY_RESCALE", cfg["lazy_rescale"]),
            Const("LATE_FILL", cfg["late_fill"]),
            Const("DV_SPLIT", cfg["dv_split"]),
            Const("MXFP4", cfg["kv_format"] == "mxfp4"),
            Const("CONSUMERS", cfg["consumers"]),
            Const("PART_KV_UNITS", part_kv_units),
            Const("CLAIM_TILES", cfg["claim_tiles"]),
            Const("EARLY_REFILL", cfg["early_refill"]),
            Const("COMPACT_LSE", cfg["compact_lse"]),
            Const("POLL_LOAD", cfg["merge_poll"] == "load"),
            Const("L2_POLICY", l2_policy),
            Const("Q_FILL", cfg["q_fill"]),
        ),
        grid=(batch, splits * cfg["dv_split"]),
        options=(("num_warps", cfg["num_warps"]),)
        + ((("maxnreg", cfg["max_registers"]),) if cfg["max_registers"] else ())
        # A waiting program holds its SM: the driver must place every program
        # at once (or refuse the launch) so that no split waits for one that
        # cannot start.
        + ((("launch_cooperative_grid", True),) if barrier else ())
    )
    launches = [attend]
    out = Buffer("out", (total_q, num_heads, KV_LORA), "bfloat16")
    buffers: tuple[Buffer, ...] = (out,)
    if merge:
        buffers = (
            Buffer("part_o", (splits, total_q, num_heads, KV_LORA), _PART_DTYPE[cfg["partials"]]),
            Buffer("part_lse", (splits, total_q, num_heads), "float32"),
            out,
        )
    if barrier:
        # Arrivals per batch element, counted up for ever (int64: no reset,
        # no wrap); zero when made. claim_tiles: then the rows' tile claims,
        # reset by each row once it has merged.
        counters = batch * (2 if cfg["claim_tiles"] else 1)
        buffers += (Buffer("counters", (counters,), "int64", zeroed=True),)
    elif merge:
        block_dv = cfg["reduce_block_dv"]
        launches.append(Launch(
            kernel=f"{stem}_merge",
            family="merge",
            constexprs=(
                Const("NUM_HEADS", num_heads),
                Const("NUM_SPLITS", splits),
                Const("BLOCK_DV", block_dv),
                Const("PDL", pdl),
                Const("PART_KV_UNITS", part_kv_units),
            ),
            grid=(total_q, KV_LORA // block_dv),
            options=(("num_warps", 4),) + ((("launch_pdl", True),) if pdl else ()),
        ))
    return BackendPlan(
        launches=tuple(launches),
        detail=GluonPlan(splits=splits, buffers=buffers, pdl=pdl,
                         fp8=Dtype(TL_FP8[runner.fp8_format]), tma_tile=cfg["tma_tile"],
                         barrier=barrier, mxfp4=cfg["kv_format"] == "mxfp4", l2_policy=l2_policy),
        q_scale=q_scale,
        # l2_policy: the generated file's PTX hook matches TMA loads with re.
        stdlib=("re",) if l2_policy else (),
        p_fp8=cfg["pv_format"] == "fp8",
    )
