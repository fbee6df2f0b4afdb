"""Stage 2: turn a validated Spec into a Plan (generator/core/plan.py).

Resolves each entry's fields (the backend's defaults for the target's
platform, overlaid with what the entry sets), then hands them to the plan
function the registry names for that backend. Nothing here depends on which
backend an entry uses.
"""

from __future__ import annotations

from typing import Any

from generator.core import registry
from generator.core.contract import DEFAULT_HEADS, FP8_MAX, FP8_MIN_EXP, SM_SCALE
from generator.core.plan import Dyn, Plan, Runner, RunnerInput, Sizes
from generator.core.spec import EntrySpec, ShapeSpec, Spec


def tag_of(shape: ShapeSpec | None) -> str:
    """The name stem of a shape's runner and kernels: b32_kv8192[_q4][_h32], or fallback."""
    if shape is None:
        return "fallback"
    tag = f"b{shape.batch}_kv{shape.kv_len}"
    if shape.q_seq_len != 1:
        tag += f"_q{shape.q_seq_len}"
    if shape.num_heads != DEFAULT_HEADS:
        tag += f"_h{shape.num_heads}"
    return tag


def resolve(entry: EntrySpec, platform: str, fallback: bool = False) -> dict[str, Any]:
    """The backend's defaults on this platform overlaid with what the entry sets."""
    backend = registry.BACKENDS[entry.backend]
    return {**backend.defaults_for(platform, fallback), **entry.tuning()}


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
        merged = {"last_split": ", merged in-kernel", "barrier": ", merged by the splits behind a barrier"}.get(
            cfg.get("merge"), "")
        parts.append(f"{cfg['splits']} splits{merged}")
    if "block_n" in cfg:
        parts.append(f"block_n {cfg['block_n']}")
    parts.append(f"{cfg['kv_format']} KV")
    if cfg.get("qk_scaled"):
        parts.append("scores by tl.dot_scaled")
    parts.append(f"{cfg['q_mode']} Q")
    if "mma_dtype" in cfg:
        parts.append(f"{cfg['mma_dtype']} MMA")
    if "num_warps" in cfg:
        stages = cfg["num_stages"]
        parts.append(f"{cfg['num_warps']} warps, {stages} stage{'s' if stages > 1 else ''}")
    if "v_parts" in cfg:
        parts.append(f"V in {cfg['v_parts']} part{'s' if cfg['v_parts'] > 1 else ''}")
    if cfg.get("v_buffers", 1) > 1:
        parts.append(f"{cfg['v_buffers']} V buffers")
    if cfg.get("v_buffers") == 0 and cfg.get("prefetch_v"):
        parts.append("V operand prefetched")
    if cfg.get("v_lookahead"):
        parts.append("V rows loaded a group ahead")
    if cfg.get("v_row_pairs"):
        parts.append("V rows paired before conversion")
    if cfg.get("v_row_swap"):
        parts.append("V rows swapped in odd pairs (no bank conflict)")
    if cfg.get("pv_format") == "fp8":
        parts.append("PV in fp8 (P rounded to e4m3)")
    if cfg.get("v_early"):
        parts.append("V's first rows loaded before the softmax")
    if cfg.get("overlap_scores"):
        parts.append("next scores overlapped")
    if cfg.get("max_registers"):
        parts.append(f"at most {cfg['max_registers']} registers")
    if cfg.get("pdl") and cfg.get("merge") != "barrier":
        parts.append("PDL merge")
    if cfg.get("speculate"):
        parts.append("speculative prologue")
    if cfg.get("tma_tile"):
        parts.append("a tile in two TMA copies")
    if cfg.get("stagger"):
        parts.append("staggered tile order")
    if cfg.get("lazy_rescale"):
        parts.append("lazy rescale")
    if cfg.get("late_fill"):
        parts.append("second tile once Q is in, later ring stages once the first tile is in" if cfg.get("q_fill")
                     else "later ring stages once the first tile is in")
    if cfg.get("dv_split", 1) > 1:
        parts.append(f"V's output dims over {cfg['dv_split']} programs a split")
    if cfg.get("consumers", 1) > 1:
        parts.append(f"{cfg['consumers']} consumer warpgroups")
    if cfg.get("claim_tiles"):
        parts.append("tiles claimed at run time")
    if cfg.get("early_refill"):
        parts.append("ring slots refilled once V is in registers")
    if cfg.get("compact_lse"):
        parts.append("the merge's log-sum-exps in one compact load")
    if cfg.get("merge_poll") == "load":
        parts.append("the merge's wait polled by acquire loads")
    if cfg.get("partials") in ("fp16", "fp8") and cfg.get("splits", 1) > 1:
        parts.append(f"{cfg['partials']} partials")
    if cfg.get("l2_policy", "none") != "none":
        parts.append(f"KV loads {cfg['l2_policy'].replace('_', '-')} in L2")
    if "persistent" in cfg:
        parts.append("persistent" if cfg["persistent"] else "non-persistent")
    return ", ".join(parts)


def _sizes(shape: ShapeSpec | None) -> Sizes:
    if shape is None:
        return Sizes(Dyn("batch"), Dyn("total_q"), Dyn("num_heads"), Dyn("kv_len"), Dyn("kv_rows"))
    return Sizes(shape.batch, shape.batch * shape.q_seq_len, shape.num_heads, shape.kv_len,
                 shape.batch * shape.kv_len)


def plan_runner(spec: Spec, shape: ShapeSpec | None, entry: EntrySpec, interpret: bool) -> Runner:
    """One runner: resolve its fields, then run its backend's plan function."""
    backend = registry.BACKENDS[entry.backend]
    target = spec.target
    cfg = resolve(entry, target.platform, fallback=shape is None)
    tag = tag_of(shape)
    sizes = _sizes(shape)
    part = backend.plan(
        RunnerInput(
            tag=tag,
            key=shape.key if shape else None,
            sizes=sizes,
            platform=target.platform,
            fp8_format=target.fp8_format,
            triton_options=tuple(sorted(target.triton_options.items())),
            interpret=interpret,
        ),
        cfg,
    )
    return Runner(
        backend=backend.name,
        template=backend.template,
        tag=tag,
        name=f"run_{tag}",
        key=shape.key if shape else None,
        title=_title(shape),
        summary=_summary(backend.name, cfg),
        q_mode=cfg["q_mode"],
        kv_format=cfg["kv_format"],
        q_scale=part.q_scale,
        sizes=sizes,
        launches=part.launches,
        detail=part.detail,
        stdlib=part.stdlib,
        p_fp8=part.p_fp8,
        min_kv_rows=sizes.kv_rows if shape is not None and backend.uniform_kv_only else 0,
        deterministic=entry.deterministic,
    )


def build_plan(spec: Spec, interpret: bool = False, timeline: bool = False) -> Plan:
    """Resolve defaults and derive every value the templates need.

    interpret=True plans a build for Triton's CPU interpreter: float32 dot
    operands and an exact fp8 rounding step (docs/contract.md); never committed.
    timeline=True plans a build whose gluon kernels stamp the time at fixed
    points of every program (gen timeline); never committed either.
    """
    runners = tuple(plan_runner(spec, s, s, interpret) for s in spec.shapes)
    fallback = plan_runner(spec, None, spec.fallback, interpret)
    used = [registry.BACKENDS[r.backend] for r in runners + (fallback,)]
    # Templates and stdlib modules in registry order, each once.
    order = list(registry.BACKENDS)
    used.sort(key=lambda b: order.index(b.name))
    templates = tuple(dict.fromkeys(b.template for b in used))
    stdlib = tuple(sorted({m for b in used for m in b.stdlib} | {m for r in runners for m in r.stdlib}))
    target = spec.target
    return Plan(
        spec_path=spec.path,
        target=target.name,
        platform=target.platform,
        header=tuple(target.header),
        env=tuple(sorted(target.env.items())),
        interpret=interpret,
        sm_scale=SM_SCALE,
        fp8_format=target.fp8_format,
        fp8_max=FP8_MAX[target.fp8_format],
        fp8_min_exp=FP8_MIN_EXP[target.fp8_format],
        stdlib=stdlib,
        templates=templates,
        runners=runners,
        fallback=fallback,
        timeline=timeline,
    )
