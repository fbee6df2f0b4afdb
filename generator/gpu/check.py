"""`gen check`: prove a generated submission correct, stricter than the leaderboard.

Each case calls custom_kernel once, then for each of its seeds poisons the
returned buffer with NaN and calls again on fresh inputs (so every element
must be written again), and applies
1. the leaderboard rule against a reference with the leaderboard's numerics;
2. a strict bound on ||out - ref|| / ||ref|| against float32 math over exactly
   the operands the runner reads (its KV format dequantised, Q as its Q mode
   gives it), per backend and MMA type, see strict_bound(); the worst seed's
   error against the bound is the case's margin, and above THIN_MARGIN of the
   bound it is flagged (a warning: another seed could fail);
3. no NaN or inf;
4. on the first seed's inputs, the same bits from every call (--repeats) and
   from a CUDA graph's replay (generator/gpu/replay.py), unless the entry
   declares `deterministic: false` (then the difference is reported, and the
   replay held to the strict bound).
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass

from generator.core.contract import (
    CONTRACT_TEST_SHAPES,
    KV_LORA,
    LB_ATOL,
    LB_MAX_FAIL_FRACTION,
    LB_RTOL,
)
from generator.gpu.inputs import Case, uniform_case
from generator.core import registry
from generator.core.plan import Plan, Runner
from generator.core.spec import Spec, load_spec

# Multiplier on the KV for the "hot" cases: scores of ~30 sigma overflow
# exp() in float32 unless the softmax subtracts its running max.
HOT_GAIN = 30.0

# fp8_static Q clips |q| above q_absmax. The task's q is N(0, 1) (max |q| about
# 5 at the largest shape, under the default q_absmax of 6); each static-Q entry
# also runs a case with q ~ N(0, Q_MARGIN_GAIN^2), whose max |q| is well above
# q_absmax, so the table shows how the runner fares past its scale (an
# emulation of the leaderboard rule failed from q ~ N(0, 3) on).
Q_MARGIN_GAIN = 2.0

# A case whose worst strict error passes this fraction of its bound has a thin
# margin: flagged, not failed (an entry keeps its worst at most 85% of its
# bound, or the bound's reasoning is written next to it).
THIN_MARGIN = 0.85

# MXFP4 runners also run with non-uniform block scales: each 32-dim block of
# each KV row multiplied by 2^k, k in [-10, 4], and one block in 16 zeroed, so
# the e8m0 bytes span 0 (all-zero blocks) and about 115 to 133 (randn inputs
# alone give about 124 to 129); a kernel that reads a wrong block's scale, a
# wrong scale stride or a wrong exponent fails the strict rule. The leaderboard
# rule is not judged there: its per-tensor fp8 reference flushes the small blocks.
MX_SPREAD = (10, 4)


def mxfp4_variants(base: Case) -> list[Case]:
    """An MXFP4 runner's extra cases: non-uniform scales (padded scale tensor), and
    the unpadded scale layout handed over as torch's fp4x2 / e8m0 types."""
    return [
        dataclasses.replace(base, name=f"{base.name}-mx-scales", mx_spread=MX_SPREAD,
                            tags=base.tags + ("mx-scales",)),
        dataclasses.replace(base, name=f"{base.name}-mx-unpadded", mx_pad=(0, 0),
                            mx_torch_dtypes=True),
    ]


def strict_bound(runner: Runner) -> float:
    """The strict relative-L2 bound of the runner's backend and KV format (measured, see
    the registry); a runner that rounds P to fp8 its own (registry.STRICT_BOUND_PV_FP8)."""
    if runner.strict_bound is not None:
        return runner.strict_bound
    if runner.p_fp8:
        return registry.STRICT_BOUND_PV_FP8
    backend = registry.BACKENDS[runner.backend]
    return backend.strict_bound_by_kv.get(runner.kv_format, backend.strict_bound)


@dataclass(frozen=True)
class Result:
    case: str
    runner: str
    backend: str
    q_mode: str
    kv_format: str
    rel_err: float
    bound: float
    lb_fail_fraction: float
    rel_err_vs_leaderboard: float
    finite: bool
    ok: bool
    note: str
    # fp8_static Q only (else None): max |q| / q_absmax, and the fraction of q
    # elements clipped at q_absmax (the worst seed's).
    q_absmax_ratio: float | None = None
    q_clipped: float | None = None
    # Seeds run (rel_err, rel_err_vs_leaderboard and lb_fail_fraction are their
    # worst), and the worst strict error over the bound.
    seeds: int = 1
    margin: float = 0.0
    thin_margin: bool = False
    # The entry's declaration, calls on the first seed's inputs, distinct
    # outputs among them and the largest difference from the first.
    deterministic: bool = True
    repeats: int = 1
    distinct_outputs: int = 1
    repeat_max_diff: float = 0.0
    # CUDA graph capture and replay: "pass", "fail", "skipped" or "not run".
    graph: str = "not run"
    graph_note: str = ""


# ---------------------------------------------------------------------------
# Which cases
# ---------------------------------------------------------------------------


def miniature(spec: Spec) -> Spec:
    """The same spec with every shape's key shrunk so the interpreter can run it,
    keeping its structure: each split still gets whole tiles plus a tail."""
    shapes, used = [], set()
    for i, shape in enumerate(spec.shapes):
        cfg = shape.tuning()
        block_n = cfg.get("block_n", 64)
        tiled = "block_n" in registry.BACKENDS[shape.backend].fields
        kv = cfg.get("splits", 1) * block_n + block_n // 2 + 5 if tiled else 96
        batch = 2 + i % 3
        while (batch, kv, shape.q_seq_len, shape.num_heads) in used:
            kv += 1
        used.add((batch, kv, shape.q_seq_len, shape.num_heads))
        shapes.append(shape.model_copy(update={"batch": batch, "kv_len": kv}))
    return dataclasses.replace(spec, shapes=tuple(shapes))


def generic_cases(small: bool, mxfp4: bool = False) -> list[Case]:
    """Inputs no table entry matches: they exercise the fallback's generality
    (and, when it reads MXFP4, its scale layouts on unequal and empty segments)."""
    n = 1 if small else 8
    uneven = Case("uneven+empty", 5, (0, 37 * n, 300 * n, 1, 129 * n), 1, 16, 999, tags=("generic",))
    return ([] if not mxfp4 else mxfp4_variants(uneven)) + [
        Case("uneven+empty", 5, (0, 37 * n, 300 * n, 1, 129 * n), 1, 16, 999, tags=("generic",)),
        Case("q_seq_len4", 3, (2, 70 * n, 130 * n), 4, 16, 1000, tags=("generic",)),
        Case("heads32", 3, (64 * n, 100 * n, 33), 1, 32, 1001, tags=("generic",)),
        Case("q4+heads32", 2, (90 * n, 7), 4, 32, 1002, tags=("generic",)),
        uniform_case("batch5", 5, 96 * n, tags=("generic",)),
        uniform_case("batch5-hot", 5, 96 * n, kv_gain=HOT_GAIN, tags=("generic", "hot")),
    ]


def shape_cases(spec: Spec, plan: Plan, small: bool) -> list[tuple[str, Case]]:
    cases: list[tuple[str, Case]] = []
    for shape, runner in zip(spec.shapes, plan.runners, strict=True):
        base = uniform_case(runner.tag, shape.batch, shape.kv_len, shape.q_seq_len, shape.num_heads)
        cases.append((runner.tag, base))
        cases.append((runner.tag, dataclasses.replace(base, name=f"{runner.tag}-hot",
                                                      kv_gain=HOT_GAIN, tags=("hot",))))
        if not registry.BACKENDS[runner.backend].uniform_kv_only:
            # Same key, unequal lengths: the runner reads the indptrs on the device.
            lens = tuple(max(1, shape.kv_len - (shape.kv_len * k) // (2 * shape.batch))
                         for k in range(shape.batch))
            lens = (0,) + lens[1:] if shape.batch > 1 else lens
            cases.append((runner.tag, dataclasses.replace(base, name=f"{runner.tag}-uneven",
                                                          kv_lens=lens)))
            if runner.kv_format == "mxfp4":
                cases += [(runner.tag, c) for c in mxfp4_variants(cases[-1][1])]
        if runner.q_mode == "fp8_static":
            cases.append((runner.tag, dataclasses.replace(
                base, name=f"{runner.tag}-q{Q_MARGIN_GAIN:g}x", q_gain=Q_MARGIN_GAIN,
                tags=("q-margin",))))
    if not small:
        for batch, kv_len in CONTRACT_TEST_SHAPES:
            case = uniform_case(f"contract-b{batch}-kv{kv_len}", batch, kv_len)
            cases.append((runner_for(plan, case).tag, case))
    return cases


def runner_for(plan: Plan, case: Case) -> Runner:
    for runner in plan.runners:
        if runner.key == case.key:
            return runner
    return plan.fallback


# ---------------------------------------------------------------------------
# Running one case
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Judged:
    """One seed's output against the references."""

    rel: float
    rel_lb: float
    lb_fail: float
    finite: bool
    shape: tuple[int, ...]
    ratio: float | None
    clipped: float | None


def _judge(out, data, runner: Runner, fp8) -> _Judged:
    """One output against the float32 and the leaderboard references."""
    import torch

    from generator.gpu.reference import exact_reference, leaderboard_reference

    out = out.float()
    expected_shape = tuple(data[0].shape[:2]) + (KV_LORA,)
    finite = bool(torch.isfinite(out).all()) and tuple(out.shape) == expected_shape
    if tuple(out.shape) != expected_shape:
        rel = rel_lb = lb_fail = float("inf")
    else:
        ref = exact_reference(data, runner.kv_format, runner.q_mode, fp8, runner.q_scale)
        lb_ref = leaderboard_reference(data, fp8)
        rel = _rel(out, ref)
        rel_lb = _rel(out, lb_ref)
        bad = (out - lb_ref).abs() > LB_ATOL + LB_RTOL * lb_ref.abs()
        bad |= ~torch.isfinite(out)
        lb_fail = bad.float().mean().item()
    ratio = clipped = None
    if runner.q_mode == "fp8_static":
        absmax = float(runner.q_scale) * float(torch.finfo(fp8).max)
        q_abs = data[0].float().abs()
        ratio = q_abs.max().item() / absmax
        clipped = (q_abs > absmax).float().mean().item()
    return _Judged(rel, rel_lb, lb_fail, finite, tuple(out.shape), ratio, clipped)


def _worst(values):
    values = [v for v in values if v is not None]
    return max(values) if values else None


def check_case(module, spec: Spec, plan: Plan, case: Case, seed: int, device, seeds: int = 1,
               repeats: int = 1, graph: bool = False) -> Result:
    """Check one case: a first call on seed's inputs, then `seeds` fresh inputs
    (seed + 1, seed + 2, ...), the returned buffer poisoned before each, each
    judged (the result holds the worst); on the first, `repeats` calls compared
    bitwise and, with graph, a CUDA graph's replay (generator/gpu/replay.py)."""
    import torch

    from generator.gpu.inputs import FP8_DTYPES, make_inputs
    from generator.gpu.replay import GraphReplay, graph_replay, repeat_calls

    fp8 = FP8_DTYPES[spec.target.fp8_format]
    runner = runner_for(plan, case)
    bound = strict_bound(runner)
    call = module.custom_kernel
    returned = call(make_inputs(case, seed, device, spec.target.fp8_format))
    judged: list[_Judged] = []
    reps = replay = None
    for k in range(max(seeds, 1)):
        returned.fill_(float("nan"))
        data = make_inputs(case, seed + 1 + k, device, spec.target.fp8_format)
        returned = call(data)
        if device != "cpu":
            torch.cuda.synchronize()
        eager = returned.clone()
        judged.append(_judge(eager, data, runner, fp8))
        if k == 0:
            reps = repeat_calls(call, data, returned, eager, repeats)
            if graph and device == "cpu":
                replay = GraphReplay("skipped", "Triton's interpreter runs on the CPU")
            elif graph:
                replay = graph_replay(call, data, eager, exact=runner.deterministic, bound=bound,
                                      rel=_rel)
        del data, eager
    rel = max(j.rel for j in judged)
    lb_fail = max(j.lb_fail for j in judged)
    finite = all(j.finite for j in judged)
    ratio, clipped = _worst(j.ratio for j in judged), _worst(j.clipped for j in judged)
    notes = []
    if clipped:
        absmax = float(runner.q_scale) * float(torch.finfo(fp8).max)
        notes.append(f"q clipped: {clipped:.2%} of |q| above q_absmax {absmax:g}")
    if not finite:
        expected = (case.batch * case.q_seq_len, case.num_heads, KV_LORA)
        shapes = {j.shape for j in judged if j.shape != expected}
        notes.append(f"shape {shapes.pop()} != {expected}" if shapes else "NaN/inf")
    if rel > bound:
        notes.append(f"strict error {rel:.2e} > {bound:.2g}")
    # The leaderboard rule is judged on the task's own input distribution only:
    # at 30x scores the reference's fp8 Q error alone breaks its tolerance, and
    # the fp8 reference cannot represent non-uniform MXFP4 block scales. MXFP4's
    # own error (about 3x fp8's, ANCHORS.md) breaks it once scores double: an
    # MXFP4 runner's q-margin case shows the fraction without judging it.
    lb_applies = not {"hot", "mx-scales"} & set(case.tags)
    if runner.kv_format == "mxfp4" and "q-margin" in case.tags:
        lb_applies = False
        notes.append(f"MXFP4 at q ~ N(0, {case.q_gain ** 2:g}): {lb_fail:.2%} fail the leaderboard "
                     "rule (not judged)")
    if lb_applies and lb_fail > LB_MAX_FAIL_FRACTION:
        notes.append(f"leaderboard rule: {lb_fail:.1%} of elements fail")
    elif lb_applies and lb_fail > 0:
        notes.append(f"leaderboard warning: {lb_fail:.2%} fail")
    margin = rel / bound
    thin = rel <= bound and margin > THIN_MARGIN
    if thin:
        notes.append(f"thin margin: worst of {len(judged)} seed{'s' if len(judged) > 1 else ''} "
                     f"at {margin:.0%} of the bound")
    deterministic_ok = True
    if reps.distinct > 1:
        what = (f"{reps.distinct} distinct outputs in {reps.calls} calls on the same inputs, "
                f"largest difference {reps.max_diff:.2e}")
        if runner.deterministic:
            deterministic_ok = False
            notes.append(f"not deterministic: {what} (an entry may allow it only with "
                         "`deterministic: false` and its measured gain)")
        else:
            notes.append(f"nondeterministic as declared: {what}")
    if replay is not None and replay.status == "fail":
        notes.append(replay.note)
    ok = (finite and rel <= bound and (lb_fail <= LB_MAX_FAIL_FRACTION or not lb_applies)
          and deterministic_ok and (replay is None or replay.status != "fail"))
    return Result(case.name, runner.name, runner.backend, runner.q_mode, runner.kv_format,
                  rel, bound, lb_fail, max(j.rel_lb for j in judged), finite, ok, "; ".join(notes),
                  ratio, clipped, seeds=len(judged), margin=margin, thin_margin=thin,
                  deterministic=runner.deterministic, repeats=reps.calls,
                  distinct_outputs=reps.distinct, repeat_max_diff=reps.max_diff,
                  graph=replay.status if replay is not None else "not run",
                  graph_note=replay.note if replay is not None else "")


def _rel(out, ref) -> float:
    denom = ref.norm().item()
    diff = (out - ref).norm().item()
    return diff / denom if denom > 0 else (0.0 if diff == 0 else float("inf"))


# ---------------------------------------------------------------------------
# gen check
# ---------------------------------------------------------------------------


def why_not_here(backend_name: str, platform: str, interpret: bool) -> str | None:
    """Why a backend's runners cannot run on this machine (None: they can)."""
    backend = registry.BACKENDS[backend_name]
    if platform not in backend.platforms:
        return (f"backend {backend_name!r} runs on {' or '.join(backend.platforms)} only "
                f"(this machine's torch: {platform})")
    if backend.needs_aiter and not _has_aiter():
        return f"backend {backend_name!r} needs aiter, which is not installed here"
    if interpret and not backend.runs_on_cpu:
        return f"Triton's interpreter cannot run backend {backend_name!r} (only a GPU can)"
    return None


def unrunnable(spec: Spec, platform: str, interpret: bool) -> list[tuple[str, str, str]]:
    """(tag, backend, why) of each of spec's entries that cannot run here."""
    from generator.core.planner import tag_of

    out = []
    for shape in spec.shapes:
        why = why_not_here(shape.backend, platform, interpret)
        if why:
            out.append((tag_of(shape), shape.backend, why))
    return out


def localize(spec: Spec, platform: str, interpret: bool) -> tuple[Spec, list[str]]:
    """The spec as this machine can run it: shapes whose backend cannot run here
    (aiter off ROCm, anything the interpreter cannot run) are dropped and named;
    Triton options of another platform are removed (the kernels are portable)."""
    keep, dropped = [], []
    for shape in spec.shapes:
        runs = why_not_here(shape.backend, platform, interpret) is None
        (keep if runs else dropped).append(shape)
    target = spec.target
    if target.platform != platform:
        target = target.model_copy(update={"platform": platform, "triton_options": {},
                                           "env": {}, "aiter": False})
    tags = [f"b{s.batch}_kv{s.kv_len} ({s.backend})" for s in dropped]
    return dataclasses.replace(spec, target=target, shapes=tuple(keep)), tags


def _has_aiter() -> bool:
    import importlib.util

    return importlib.util.find_spec("aiter") is not None


def prepare(spec_path, interpret: bool):
    """(spec, plan, module, dropped) for a check: on a CPU the interpreter build
    of a miniature spec, on a GPU the real build, each localized to this machine."""
    from generator.gpu.harness import build_module, this_platform

    spec, dropped = localize(load_spec(spec_path), this_platform(), interpret)
    if interpret:
        os.environ["TRITON_INTERPRET"] = "1"
        spec = miniature(spec)
    plan, module = build_module(spec, interpret=interpret)
    return spec, plan, module, dropped


def select_cases(spec, plan, shapes, small: bool) -> list[Case]:
    cases = [c for tag, c in shape_cases(spec, plan, small) if not shapes or tag in shapes]
    if not shapes or "fallback" in shapes:
        cases += generic_cases(small, mxfp4=plan.fallback.kv_format == "mxfp4")
    return cases


def filter_tags(spec: Spec, kept: Spec, shapes, with_fallback: bool = True) -> set[str]:
    """The entries a --shapes filter names, checked: every tag must be one of the
    spec's entries (a typo is an error, not zero cases), and at least one must
    be able to run on this machine. kept is spec localized to this machine."""
    from generator.core.planner import tag_of
    from generator.errors import UserError

    valid = [tag_of(s) for s in spec.shapes] + (["fallback"] if with_fallback else [])
    unknown = [s for s in shapes if s not in valid]
    if unknown:
        raise UserError(f"{spec.path}: --shapes {', '.join(unknown)}: no such entry "
                        f"(valid: {', '.join(valid)})")
    runnable = {tag_of(s) for s in kept.shapes} | ({"fallback"} if with_fallback else set())
    if not runnable & set(shapes):
        raise UserError(f"{spec.path}: --shapes {', '.join(shapes)}: none of these entries can "
                        f"run on this machine (runnable: {', '.join(sorted(runnable))})")
    return set(shapes)


# Seeds per case on a GPU, and under --interpret on a CPU, where every call of
# every case costs about a second: `gen check --interpret --spec
# specs/mi355x.yaml` (19 cases, two shared CPU cores) took 68 s with 1 seed and
# 1 call, 149 s with 2 seeds and 3 calls (about 26 s per added call of every
# case); 8 seeds would take about 5 minutes. The interpreter's numbers are not
# the GPU's (float32 dots), so its seeds prove the machinery, not the margin.
GPU_SEEDS = 8
INTERPRET_SEEDS = 2
# Calls per case on the first seed's inputs, compared bitwise.
DEFAULT_REPEATS = 3


def check_defaults(interpret: bool, seeds: int | None, repeats: int | None) -> tuple[int, int]:
    """(seeds, repeats), the defaults filled in: GPU_SEEDS on a GPU,
    INTERPRET_SEEDS under the interpreter; DEFAULT_REPEATS."""
    return (seeds if seeds is not None else (INTERPRET_SEEDS if interpret else GPU_SEEDS),
            repeats if repeats is not None else DEFAULT_REPEATS)


def run_checks(spec_path, shapes=(), interpret=False, seed=1, json_path=None, seeds=None,
               repeats=None):
    """Check every selected entry's cases, print the case table and the summary
    per entry, write the JSON; the Verdict (generator/gpu/check_report.py)."""
    import torch

    from generator.core.planner import tag_of
    from generator.errors import UserError
    from generator.gpu.check_report import Verdict, summarize, write_report
    from generator.gpu.harness import this_platform
    from generator.gpu.replay import graphs_available

    if not interpret and not torch.cuda.is_available():
        raise UserError("no GPU found: run on a GPU, or pass --interpret to use Triton's "
                        "interpreter on the CPU")
    seeds, repeats = check_defaults(interpret, seeds, repeats)
    original = load_spec(spec_path)
    kept, _ = localize(original, this_platform(), interpret)
    wanted = filter_tags(original, kept, shapes) if shapes else None
    spec, plan, module, _ = prepare(spec_path, interpret)
    # Interpreter builds shrink each key (and so its tag): entries match by position.
    entry_of = {r.name: tag_of(s) for r, s in zip(plan.runners, kept.shapes, strict=True)}
    entry_of[plan.fallback.name] = "fallback"
    if shapes:
        shapes = tuple(r.tag for r in plan.runners if entry_of[r.name] in wanted) + (
            ("fallback",) if "fallback" in wanted else ())
    device = "cpu" if interpret else "cuda"
    no_graphs = "Triton's interpreter runs on the CPU" if interpret else graphs_available()
    cases = select_cases(spec, plan, shapes, small=interpret)
    if not cases:
        raise UserError(f"{spec_path}: no case to check (--shapes {', '.join(shapes)})")
    results = [check_case(module, spec, plan, case, seed + (seeds + 1) * i, device, seeds=seeds,
                          repeats=repeats, graph=True)
               for i, case in enumerate(cases)]
    skipped = [(tag, backend, why) for tag, backend, why in
               unrunnable(original, this_platform(), interpret) if wanted is None or tag in wanted]
    order = [entry_of[r.name] for r in plan.runners if not shapes or r.tag in shapes]
    if not shapes or "fallback" in shapes:
        order.append("fallback")
    verdict = Verdict(
        spec=str(spec_path),
        device="interpreter" if interpret else torch.cuda.get_device_name(),
        seeds=seeds, repeats=repeats, first_seed=seed,
        graphs=f"skipped: {no_graphs}" if no_graphs else "captured and replayed",
        cases=tuple(results),
        entries=summarize(results, entry_of, order, skipped),
    )
    write_report(verdict, json_path)
    return verdict
