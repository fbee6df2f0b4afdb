"""Same inputs, same bits: a runner called again on one input, and replayed
from a CUDA graph.

gen check calls each case's runner `--repeats` times on one input (the output
poisoned with NaN before each call, so that every call must write it all) and
compares the outputs bitwise: a runner whose result depends on arrival order
(atomics, tiles claimed at run time) shows as several distinct outputs. It
also captures the runner in a CUDA graph, as a serving engine would, replays
it on the same inputs and compares with the eager output: bitwise for a
deterministic runner, within its strict bound for one declared
`deterministic: false`. Graph capture follows torch's documented recipe: a
few warm-up calls on a side stream (every lazy cache filled, every kernel
compiled), then one captured call whose tensors are the graph's static
inputs and output; no host sync may happen inside it.
"""

from __future__ import annotations

from dataclasses import dataclass

# Warm-up calls on a side stream before a capture (torch's recipe uses 3).
GRAPH_WARMUP = 3
# Replays of one captured graph, each compared with the eager output: the
# second proves that state left by the first (split counters, caches) is reset.
GRAPH_REPLAYS = 2


@dataclass(frozen=True)
class Repeats:
    """A runner called `calls` times on one input."""

    calls: int
    # Bitwise-distinct outputs among the calls (1: deterministic).
    distinct: int
    # The largest |difference| of an element from the first call's (inf where
    # one holds NaN and the other does not); 0.0 when every call agreed.
    max_diff: float


@dataclass(frozen=True)
class GraphReplay:
    """The runner captured in a CUDA graph and replayed on the same input."""

    status: str  # "pass", "fail" or "skipped"
    note: str = ""
    # The largest |difference| of an element from the eager output (None: not replayed).
    max_diff: float | None = None


def _bits(t):
    """t's elements as integers of the same width (a bitwise view)."""
    import torch

    width = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[t.element_size()]
    return t.contiguous().view(width)


def same_bits(a, b) -> bool:
    """a and b hold the same bits (NaN equal to the same NaN, -0 unequal to +0)."""
    return a.shape == b.shape and a.dtype == b.dtype and bool((_bits(a) == _bits(b)).all())


def max_abs_diff(a, b) -> float:
    """The largest |a - b| over the elements, NaN against a number counting as inf."""
    import torch

    diff = (a.float() - b.float()).abs()
    one_nan = torch.isnan(a.float()) ^ torch.isnan(b.float())
    diff = torch.where(one_nan, torch.full_like(diff, float("inf")), diff.nan_to_num(nan=0.0))
    return diff.max().item() if diff.numel() else 0.0


def _fingerprint(t, weights) -> int:
    """A 64-bit fingerprint of t's bits: the sum, wrapping, of each element's
    bits times a random 64-bit weight. Integer sums do not depend on the
    order of the reduction, so equal tensors always agree; two different ones
    collide with probability about 2^-64."""
    import torch

    return int((_bits(t).flatten().to(torch.int64) * weights).sum().item())


def repeat_calls(call, data, returned, first, calls: int) -> Repeats:
    """call(data) `calls - 1` more times after the call that returned
    `returned`, whose values `first` holds (a copy: runners reuse their output
    buffer); each output poisoned before the next call. How many distinct
    outputs, and how far apart."""
    import torch

    if calls <= 1:
        return Repeats(1, 1, 0.0)
    weights = None
    seen: set[int] = set()
    max_diff = 0.0
    out = returned
    for _ in range(calls - 1):
        out.fill_(float("nan"))
        out = call(data)
        if same_bits(out, first):
            continue
        if weights is None:
            gen = torch.Generator(device=first.device).manual_seed(20240601)
            weights = torch.randint(-(1 << 62), 1 << 62, (first.numel(),), generator=gen,
                                    dtype=torch.int64, device=first.device)
        seen.add(_fingerprint(out, weights) if out.shape == first.shape else -1)
        max_diff = max(max_diff, max_abs_diff(out, first) if out.shape == first.shape else float("inf"))
    return Repeats(calls, 1 + len(seen), max_diff)


def graphs_available() -> str | None:
    """None when CUDA graphs can run here, else why not."""
    import torch

    if not torch.cuda.is_available():
        return "no CUDA graphs on the CPU"
    if not hasattr(torch.cuda, "CUDAGraph"):
        return f"torch {torch.__version__} has no torch.cuda.CUDAGraph"
    return None


def _why(exc: BaseException) -> str:
    first = (str(exc).strip().splitlines() or [""])[0]
    return f"{type(exc).__name__}: {first}"[:300]


def _settle() -> None:
    """After a failed capture: wait for the device, whatever it reports."""
    import torch

    try:
        torch.cuda.synchronize()
    except Exception:  # noqa: BLE001 (the failure is already being reported)
        pass


def graph_replay(call, data, eager, exact: bool, bound: float, rel) -> GraphReplay:
    """Capture call(data) in a CUDA graph, replay it GRAPH_REPLAYS times (the
    output poisoned before each) and compare with `eager` (a copy of the eager
    output on the same data): the same bits when `exact`, else a relative L2
    difference rel(replayed, eager) within `bound`. Any failure, capture
    included, is a result, never an exception."""
    import torch

    why_not = graphs_available()
    if why_not:
        return GraphReplay("skipped", why_not)
    graph = static_out = None
    try:
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(GRAPH_WARMUP):
                call(data)
        torch.cuda.current_stream().wait_stream(side)
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            static_out = call(data)
    except Exception as exc:  # noqa: BLE001 (a runner that cannot be captured fails its case)
        _settle()
        return GraphReplay("fail", f"CUDA graph capture failed: {_why(exc)}")
    try:
        worst = 0.0
        for _ in range(GRAPH_REPLAYS):
            static_out.fill_(float("nan"))
            graph.replay()
            torch.cuda.synchronize()
            if static_out.shape != eager.shape:
                return GraphReplay("fail", f"CUDA graph replay: output shape {tuple(static_out.shape)}"
                                           f" != eager {tuple(eager.shape)}")
            diff = max_abs_diff(static_out, eager)
            worst = max(worst, diff)
            if exact and not same_bits(static_out, eager):
                return GraphReplay("fail", f"CUDA graph replay differs from the eager output "
                                           f"(largest difference {diff:.2e})", worst)
            if not exact and not rel(static_out.float(), eager.float()) <= bound:
                return GraphReplay("fail", f"CUDA graph replay differs from the eager output by "
                                           f"{rel(static_out.float(), eager.float()):.2e} "
                                           f"(relative L2, bound {bound:.2g})", worst)
        return GraphReplay("pass", "", worst)
    except Exception as exc:  # noqa: BLE001
        _settle()
        return GraphReplay("fail", f"CUDA graph replay failed: {_why(exc)}")
    finally:
        del graph, static_out
