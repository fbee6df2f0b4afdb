"""`gen bench`: time a generated submission as the leaderboard does (docs/contract.md).

One process imports the submission once and times every shape in turn. Each
timed call: synchronise; clear L2 by writing a large buffer; record a start
event; call custom_kernel; record an end event; synchronise. The start event
queues right behind the clear, so host time spent before the first launch is
hidden ("queued", the leaderboard's figure); an "idle" figure synchronises
after the clear too, exposing the host cost (docs/contract.md). Runs stop after at
least 3 and at most 1000 (benchmark) or 100 (leaderboard) calls, once the
standard error of the mean is under 0.1% of it, or when the time budget ends.

A third figure, "host", is what a call costs the CPU: calls issued back to
back without waiting for the GPU (host_us_per_call), the cost a serving
engine that does not capture the runner in a CUDA graph pays on every call.
Baselines (--baseline) are timed on the same inputs once the build has been
timed on every shape, so that they cannot change the build's figures.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import platform as _platform
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from generator.core.contract import KV_LORA, KV_ROW_BYTES, LB_ATOL, LB_RTOL, QK_DIM
from generator.gpu.inputs import make_inputs, uniform_case
from generator.results.compare import compare, geomean

MAX_RUNS = {"benchmark": 1000, "leaderboard": 100}
MIN_RUNS = 3
TARGET_REL_SEM = 0.001
# L2-clear buffer per mode (MiB). In leaderboard mode the host regenerates and
# checks inputs between calls and the GPU idles: a 1 GiB clear (~0.25 ms) left
# the clocks low and the geomean read 103 us; a 32 GiB clear (~8 ms of work,
# as the leaderboard's 64 GiB randn keeps the GPU busy) read 75 us, the same
# as benchmark mode (H200, 2026-11-30, PERF.md). In benchmark mode the clear
# must also outlast the runner's host work, which the leaderboard's clear
# always hides: the gluon runners' 130-230 us (idle timing) sometimes outran a
# 1 GiB clear, so the small shapes' means read 25-90% above their medians; with
# 8 GiB (~2.5 ms) means and medians agree within 1% (H200, PERF.md).
DEFAULT_L2_CLEAR_MIB = {"benchmark": 8192, "leaderboard": 32768}
# Host time per call: HOST_CALLS calls a sample, issued back to back with no
# sync between them, then a sync; HOST_SAMPLES samples after HOST_WARMUP calls.
# 64 calls of a few launches each stay well under the launches a GPU queues
# before the host must wait for it (about a thousand), so that the figure is
# the host's work, not the GPU's.
HOST_CALLS = 64
HOST_SAMPLES = 20
HOST_WARMUP = 10


def l2_clear_mib_for(mode: str, requested: int | None) -> int:
    """The clear size to use: as requested, else the mode's default, capped at a
    quarter of the GPU's memory."""
    import torch

    if requested is not None:
        return requested
    quarter = torch.cuda.get_device_properties(0).total_memory // 4 >> 20
    return min(DEFAULT_L2_CLEAR_MIB[mode], quarter)


@dataclass(frozen=True)
class Timing:
    mean_us: float
    median_us: float
    min_us: float
    runs: int
    sem_us: float
    drift: float  # |mean(first half) - mean(second half)| / mean: within-run noise


@dataclass(frozen=True)
class Row:
    shape: str
    runner: str
    backend: str
    kv_format: str
    kv_bytes: int
    queued: Timing
    idle: Timing
    gbps: float
    pct_hbm: float
    floor_us: float
    over_floor: float
    # baseline name -> its mean us on the same inputs, timed the same way (queued),
    # and its output's ||out - ref|| / ||ref|| against the leaderboard's reference
    baselines_us: dict[str, float]
    baselines_rel_err: dict[str, float]
    lb_fail_fraction: float
    # Host microseconds per call, calls back to back (None: not measured).
    host: Timing | None = None


# ---------------------------------------------------------------------------
# Timing primitives
# ---------------------------------------------------------------------------


class Clock:
    """The leaderboard's per-call method, with its L2 clear and stop rule."""

    def __init__(self, l2_clear_mib: int, mode: str, max_seconds: float):
        import torch

        self.torch = torch
        self.scratch = torch.empty(l2_clear_mib * (1 << 20) // 4, dtype=torch.float32, device="cuda")
        self.max_runs = MAX_RUNS[mode]
        self.max_seconds = max_seconds

    def call(self, fn, idle: bool = False):
        """One timed call after the L2 clear: (us between the events, fn's result).
        idle: wait for the clear before the start event (the host's work shows)."""
        torch = self.torch
        torch.cuda.synchronize()
        self.scratch.zero_()
        if idle:
            torch.cuda.synchronize()
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        out = fn()
        end.record()
        torch.cuda.synchronize()
        return start.elapsed_time(end) * 1000.0, out

    def time(self, fn, idle: bool, before=None, after=None) -> Timing:
        samples: list[float] = []
        deadline = time.perf_counter() + self.max_seconds
        while len(samples) < self.max_runs:
            args = before() if before else None
            us, out = self.call((lambda: fn(args)) if before else fn, idle)
            samples.append(us)
            if after:
                after(args, out)
            if _enough(samples, deadline):
                break
        return summarize(samples)

    def host(self, fn) -> Timing:
        """Host us per call of fn, calls back to back (host_us_per_call)."""
        return host_us_per_call(fn, self.torch.cuda.synchronize)


def _enough(samples: list[float], deadline: float) -> bool:
    """The leaderboard's stop rule: at least MIN_RUNS, then stop once the mean's
    standard error is under TARGET_REL_SEM of it or the time budget is spent."""
    if len(samples) < MIN_RUNS:
        return False
    sem = statistics.stdev(samples) / math.sqrt(len(samples))
    return sem < TARGET_REL_SEM * statistics.fmean(samples) or time.perf_counter() > deadline


def host_us_per_call(fn, sync, calls: int = HOST_CALLS, samples: int = HOST_SAMPLES,
                     warmup: int = HOST_WARMUP) -> Timing:
    """What one call of fn costs the host, in us: `samples` times, `calls` calls
    issued back to back without waiting for the device, then sync() (which
    waits for it, outside the timed span); the Timing of the per-call means."""
    for _ in range(warmup):
        fn()
    sync()
    out: list[float] = []
    for _ in range(samples):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        out.append((time.perf_counter() - start) * 1e6 / calls)
        sync()
    return summarize(out)


class HostClock:
    """Clock's stop rule on the host's wall clock, for interpreter runs on a CPU
    (no events, no L2 to clear): `gen tune --interpret` times with it."""

    def __init__(self, mode: str, max_seconds: float):
        self.max_runs = MAX_RUNS[mode]
        self.max_seconds = max_seconds

    def time(self, fn, idle: bool = False) -> Timing:
        samples: list[float] = []
        deadline = time.perf_counter() + self.max_seconds
        while len(samples) < self.max_runs:
            start = time.perf_counter()
            fn()
            samples.append((time.perf_counter() - start) * 1e6)
            if _enough(samples, deadline):
                break
        return summarize(samples)


def summarize(samples: list[float]) -> Timing:
    mean = statistics.fmean(samples)
    sem = statistics.stdev(samples) / math.sqrt(len(samples)) if len(samples) > 1 else 0.0
    half = len(samples) // 2
    drift = 0.0
    if half >= 2:
        drift = abs(statistics.fmean(samples[:half]) - statistics.fmean(samples[half:])) / mean
    return Timing(mean, statistics.median(samples), min(samples), len(samples), sem, drift)


def hbm_rate_gbps() -> float:
    """Device-to-device copy of 4 GiB, counting bytes read plus written, median of 10."""
    import torch

    n = (4 << 30) // 2
    src = torch.randn(n // 2, dtype=torch.float32, device="cuda")
    dst = torch.empty_like(src)
    times = []
    for _ in range(12):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        dst.copy_(src)
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) / 1000.0)
    seconds = statistics.median(times[2:])
    rate = 2 * src.numel() * 4 / seconds / 1e9
    del src, dst
    torch.cuda.empty_cache()
    return rate


def empty_launch_us(clock: Clock) -> float:
    """Queued time of one tiny Triton launch: the floor of any kernel call."""
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def _touch(x_ptr):
        tl.store(x_ptr, tl.load(x_ptr) + 1)

    x = torch.zeros(1, device="cuda")
    _touch[(1,)](x)
    return clock.time(lambda: _touch[(1,)](x), idle=False).median_us


# ---------------------------------------------------------------------------
# gen bench
# ---------------------------------------------------------------------------


def git_commit() -> str:
    """The commit being measured: GEN_COMMIT, else git's HEAD here with
    "+changes" when tracked files differ from it (the build measured may not be
    the commit's), else "unknown"."""
    if os.environ.get("GEN_COMMIT"):
        return os.environ["GEN_COMMIT"]

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], capture_output=True, text=True,
                              check=True).stdout.strip()

    try:
        head = git("rev-parse", "--short", "HEAD")
        changes = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+changes" if changes else "")


def build_first(cases, time_build, time_baselines):
    """Time the build on every case, then the baselines on every case; yield
    ((index, case), the build's figures, the baselines' figures) in case order.

    The build goes first because a baseline changes the process it runs in:
    after FlashInfer was imported and run, the gluon runners' host cost per
    call read about twice as much on every shape (H200, PERF.md)."""
    ours = [time_build(i, case) for i, case in enumerate(cases)]
    theirs = [time_baselines(i, case) for i, case in enumerate(cases)]
    yield from zip(enumerate(cases), ours, theirs)


def bench_rows(spec_path, shapes=(), mode="benchmark", baselines=(), l2_clear_mib=None,
               max_seconds=10.0, progress=None) -> dict:
    import torch
    import triton

    from generator.core.render import inputs_hash
    from generator.core.spec import load_spec
    from generator.gpu.check import localize, runner_for
    from generator.gpu.harness import build_module, this_platform
    from generator.gpu.inputs import FP8_DTYPES
    from generator.gpu.baselines import FlashInferMLA, flashinfer_available, naive_torch
    from generator.gpu.reference import leaderboard_reference

    original = load_spec(spec_path)
    spec, dropped = localize(original, this_platform(), interpret=False)
    if shapes:
        from generator.gpu.check import filter_tags

        filter_tags(original, spec, shapes, with_fallback=False)
    plan, module = build_module(spec)
    fp8 = FP8_DTYPES[spec.target.fp8_format]
    l2_clear_mib = l2_clear_mib_for(mode, l2_clear_mib)
    clock = Clock(l2_clear_mib, mode, max_seconds)
    hbm = hbm_rate_gbps()
    launch_us = empty_launch_us(clock)
    cases = [uniform_case(r.tag, *r.key[:2], q_seq_len=r.key[2], num_heads=r.key[3])
             for r in plan.runners if not shapes or r.tag in shapes]

    def inputs(i, case):
        return make_inputs(case, 100 + i, "cuda", spec.target.fp8_format)

    # The leaderboard warms up on the first shape before timing anything.
    if cases:
        warm = make_inputs(cases[0], 0, "cuda", spec.target.fp8_format)
        for _ in range(3):
            module.custom_kernel(warm)
        torch.cuda.synchronize()

    def time_build(i, case):
        data = inputs(i, case)
        # One untimed call checks correctness (and compiles).
        out = module.custom_kernel(data).float()
        lb = leaderboard_reference(data, fp8)
        fails = [((out - lb).abs() > LB_ATOL + LB_RTOL * lb.abs()).float().mean().item()]
        if mode == "leaderboard":
            seeds = iter(range(10_000 * (i + 1), 10_000 * (i + 2)))

            def fresh():
                return make_inputs(case, next(seeds), "cuda", spec.target.fp8_format)

            def verify(args, result):
                ref = leaderboard_reference(args, fp8)
                res = result.float()
                fails.append(((res - ref).abs() > LB_ATOL + LB_RTOL * ref.abs()).float().mean().item())

            queued = clock.time(module.custom_kernel, idle=False, before=fresh, after=verify)
            idle = clock.time(module.custom_kernel, idle=True, before=fresh)
        else:
            queued = clock.time(lambda: module.custom_kernel(data), idle=False)
            idle = clock.time(lambda: module.custom_kernel(data), idle=True)
        host = clock.host(lambda: module.custom_kernel(data))
        del data, out, lb
        torch.cuda.empty_cache()
        if progress:
            progress(case.name)
        return queued, idle, host, max(fails)

    flashinfer_error = None

    def time_baselines(i, case):
        nonlocal flashinfer_error
        base, base_err = {}, {}
        if not baselines:
            return base, base_err
        data = inputs(i, case)
        lb = leaderboard_reference(data, fp8)

        def rel_err(result):
            return ((result.float().reshape(lb.shape) - lb).norm() / lb.norm()).item()

        if "torch" in baselines:
            base_err["torch"] = rel_err(naive_torch(data))
            base["torch"] = clock.time(lambda: naive_torch(data), idle=False).mean_us
        if "flashinfer" in baselines:
            if i == 0:
                flashinfer_error = flashinfer_available()
            if flashinfer_error is None:
                mla = FlashInferMLA(data)
                base_err["flashinfer"] = rel_err(mla.run())
                base["flashinfer"] = clock.time(mla.run, idle=False).mean_us
                del mla
        del data, lb
        torch.cuda.empty_cache()
        return base, base_err

    rows = []
    for (i, case), ours, (base, base_err) in build_first(cases, time_build, time_baselines):
        queued, idle, host, fails = ours
        runner = runner_for(plan, case)
        kv_bytes = sum(case.kv_lens) * KV_ROW_BYTES[runner.kv_format]
        floor = max(kv_bytes / (hbm * 1e3), launch_us)
        gbps = kv_bytes / (queued.mean_us * 1e3)
        rows.append(Row(case.name, runner.name, runner.backend, runner.kv_format, kv_bytes,
                        queued, idle, gbps, 100.0 * gbps / hbm, floor, queued.mean_us / floor,
                        base, base_err, fails, host))

    return {
        "source": "gen bench",
        "spec": str(spec_path),
        "spec_hash": inputs_hash(load_spec(spec_path)),
        "commit": git_commit(),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "device": torch.cuda.get_device_name(),
        "torch": torch.__version__,
        "triton": triton.__version__,
        "python": _platform.python_version(),
        "mode": mode,
        "l2_clear_mib": l2_clear_mib,
        "hbm_copy_gbps": hbm,
        "empty_launch_us": launch_us,
        "not_run": dropped,
        "rows": [dataclasses.asdict(r) for r in rows],
        "geomean_us": geomean([r.queued.mean_us for r in rows]),
        "geomean_idle_us": geomean([r.idle.mean_us for r in rows]),
        "geomean_host_us": geomean([r.host.mean_us for r in rows if r.host]),
        "geomean_floor_us": geomean([r.floor_us for r in rows]),
        "geomean_baselines_us": {name: geomean([r.baselines_us.get(name) for r in rows])
                                 for name in baselines if any(name in r.baselines_us for r in rows)},
        "baselines_not_run": {"flashinfer": flashinfer_error} if flashinfer_error else {},
    }


def print_report(result: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"gen bench: {result['spec']} on {result['device']} ({result['mode']} mode)")
    names = list(result["geomean_baselines_us"])
    cols = ["shape", "backend", "KV", "mean us", "median", "min", "runs", "idle us", "host us",
            "GB/s", "% HBM", "floor us", "x floor"]
    for name in names:
        cols += [f"{name} us", f"x {name}"]
    for col in cols + ["LB fail"]:
        table.add_column(col, justify="right" if col not in ("shape", "backend", "KV") else "left")
    for r in result["rows"]:
        q = r["queued"]
        table.add_row(
            r["shape"], r["backend"], r["kv_format"], f"{q['mean_us']:.2f}", f"{q['median_us']:.2f}",
            f"{q['min_us']:.2f}", str(q["runs"]), f"{r['idle']['mean_us']:.2f}",
            f"{r['host']['mean_us']:.2f}" if r.get("host") else "-", f"{r['gbps']:.0f}",
            f"{r['pct_hbm']:.1f}", f"{r['floor_us']:.2f}", f"{r['over_floor']:.2f}",
            *[cell for name in names for cell in _baseline_cells(r, name)],
            f"{r['lb_fail_fraction']:.2%}",
        )
    console = Console(width=None if sys.stdout.isatty() else 200)
    console.print(table)
    host = result.get("geomean_host_us")
    console.print(
        f"geomean {result['geomean_us']:.2f} us (idle {result['geomean_idle_us']:.2f} us, "
        + (f"host {host:.2f} us a call, " if host else "")
        + f"floor {result['geomean_floor_us']:.2f} us)"
        + "".join(f", {name} {value:.2f} us" for name, value in result["geomean_baselines_us"].items())
        + f"; HBM copy {result['hbm_copy_gbps']:.0f} GB/s, empty launch {result['empty_launch_us']:.2f} us;"
        f" commit {result['commit']}"
    )
    if result["not_run"]:
        console.print(f"not run on this machine: {', '.join(result['not_run'])}")
    for name, why in result.get("baselines_not_run", {}).items():
        console.print(f"baseline {name} not run: {why}")


def _baseline_cells(row: dict, name: str) -> tuple[str, str]:
    """A baseline's mean and the build's speed-up over it (above 1: the build is faster)."""
    base = row["baselines_us"].get(name)
    if not base:
        return "-", "-"
    return f"{base:.2f}", f"{base / row['queued']['mean_us']:.2f}x"


def run_bench(spec_path, shapes=(), mode="benchmark", baselines=(), l2_clear_mib=None,
              max_seconds=10.0, json_path=None, compare_path=None) -> dict:
    import torch
    from rich.progress import Progress

    from generator.errors import UserError
    from generator.results.load import load_result

    earlier = load_result(compare_path) if compare_path else None
    if not torch.cuda.is_available():
        raise UserError("gen bench needs a GPU (none found)")
    with Progress(transient=True) as progress:
        task = progress.add_task(f"timing {spec_path}", total=None)
        result = bench_rows(spec_path, shapes, mode, baselines, l2_clear_mib, max_seconds,
                            progress=lambda name: progress.update(task, advance=1,
                                                                  description=f"timed {name}"))
    print_report(result)
    if json_path:
        Path(json_path).write_text(json.dumps(result, indent=2))
    if earlier is not None:
        for line in compare(result, earlier):
            print(line)
    return result
