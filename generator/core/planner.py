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


def tag_for(batch: int, kv_len: int, q_seq_len: int = 1, num_heads: int = DEFAULT_HEADS) -> str:
    """The tag of a shape key: b32_kv8192[_q4][_h32] (also how results name shapes)."""
    tag = f"b{batch}_kv{kv_len}"
    if q_seq_len != 1:
        tag += f"_q{q_seq_len}"
    if num_heads != DEFAULT_HEADS:
        tag += f"_h{num_heads}"
    return tag


def tag_of(shape: ShapeSpec | None) -> str:
    """The name stem of a shape's runner and kernels: b32_kv8192[_q4][_h32], or fallback."""
    if shape is None:
        return "fallback"
    return tag_for(*shape.key)


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


def _summary(backend: registry.Backend, cfg: dict[str, Any]) -> str:
    parts = [backend.name]
    if "splits" in cfg:
        merge = cfg.get("merge", backend.merge if cfg["splits"] > 1 else None)
        merged = {"last_split": ", merged in-kernel", "barrier": ", merged by the splits behind a barrier"}.get(
            merge, "")
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
    elif "num_stages" in cfg:
        stages = cfg["num_stages"]
        parts.append(f"{stages} tile{'s' if stages > 1 else ''} in flight")
    if cfg.get("speculate"):
        parts.append("speculative prologue")
    if cfg.get("dv_split", 1) > 1:
        parts.append(f"V's output dims over {cfg['dv_split']} programs a split")
    if cfg.get("consumers", 1) > 1:
        parts.append(f"{cfg['consumers']} consumer warpgroups")
    if cfg.get("early_refill"):
        parts.append("ring slots refilled once V is in registers")
    if cfg.get("v_early"):
        parts.append("V's first rows loaded before the softmax")
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
    # HIP launch options: the target's, overridden by the entry's; none off rocm.
    options = {**target.triton_options,
               **{k: v for k, v in cfg.items() if k in registry.HIP_OPTIONS}}
    part = backend.plan(
        RunnerInput(
            tag=tag,
            key=shape.key if shape else None,
            sizes=sizes,
            platform=target.platform,
            fp8_format=target.fp8_format,
            triton_options=tuple(sorted(options.items())) if target.platform == "rocm" else (),
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
        summary=_summary(backend, cfg),
        q_mode=cfg["q_mode"],
        kv_format=cfg["kv_format"],
        q_scale=part.q_scale,
        sizes=sizes,
        launches=part.launches,
        detail=part.detail,
        stdlib=part.stdlib,
        p_fp8=part.p_fp8,
        strict_bound=part.strict_bound,
        min_kv_rows=sizes.kv_rows if shape is not None and backend.uniform_kv_only else 0,
        deterministic=entry.deterministic,
    )


def build_plan(spec: Spec, interpret: bool = False) -> Plan:
    """Resolve defaults and derive every value the templates need.

    interpret=True plans a build for Triton's CPU interpreter: float32 dot
    operands and an exact fp8 rounding step (docs/contract.md); never committed.
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
    )
