"""Compile a build's Triton kernels ahead of time for a GPU that is not present.

Each runner of the generated submission is called once with "meta" tensors
(shapes, strides and dtypes, no memory) while every Triton kernel's launch is
recorded instead of run: kernel, grid, arguments, launch options (num_warps,
num_stages and the target's HIP options), exactly as the runner launches them.
Each launch is then specialised with Triton's own binder for the target's
backend (the JIT's rules: pointers and integers divisible by 16 get
tt.divisibility, integers equal to 1 become constants, on AMD tensors under
2 GiB get buffer-op pointer ranges) and compiled with triton.compile for
GPUTarget("cuda", 90, 32) or GPUTarget("hip", "gfx950", 64). Nothing here
depends on the plan: only on the generated module (RUNNERS, run_fallback and
its @triton.jit / @gluon.jit functions).

Gluon runners build a host TensorDescriptor over the fp8 KV; over a meta
tensor (data_ptr() is 0, so 16-byte aligned) it carries what the JIT
specialises on: dtype, shape, strides, block shape and layout.

On sm90 each kernel's PTX also goes through ptxas -arch=sm_90a -v once more,
to read its warnings: C7514/C7515 say that ptxas serialised the kernel's
wgmma.mma_async instructions (each waits for the previous one), which Triton's
own compile does not show.

Needs torch (the runners build their buffers with it) and triton; the work
runs in spawned worker processes, which keeps TRITON_INTERPRET (set by the
test suite) out of the compiler and spreads the kernels over the CPU cores.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import types
import warnings
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import get_context

# Inputs of the fallback runner, whose constexprs (heads) and strides follow
# the input: the contract's common geometry at a moderate size.
FALLBACK_PROBE = (16, 1024, 1, 16)  # batch, kv_len, q_seq_len, num_heads

QK_DIM, KV_LORA = 576, 512

# One SASS instruction: address, optional predicate, opcode with its
# modifiers (HGMMA.64x16x16.F32), operands.
_SASS_INSTR = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*(?:\.\w+)*)([^;]*);",
                         re.M)
# ptxas's performance warnings that it serialised a kernel's wgmmas, e.g.
# "ptxas /tmp/k.ptx, line 9; warning : Potential Performance Loss: wgmma.mma_async
# instructions are serialized due to ... (C7515)"
_WGMMA_SERIALIZED = re.compile(r"^.*(?:C7514|C7515|wgmma\.mma_async instructions are serialized).*$",
                               re.M)
_RES_USAGE = re.compile(r"Function (\S+):\s*\n\s*REG:(\d+) STACK:(\d+) SHARED:(\d+) LOCAL:(\d+)")
_AMD_META = re.compile(r"^\s+\.(vgpr_count|agpr_count|vgpr_spill_count|sgpr_spill_count|sgpr_count|"
                       r"private_segment_fixed_size|group_segment_fixed_size):\s+(\d+)", re.M)
_AMD_COMMENT = re.compile(r"^\s*; (NumVgprs|NumAgprs|TotalNumVgprs|ScratchSize):\s+(\d+)", re.M)
_AMD_MMA = re.compile(r"^\s+(v_mfma\w*|v_smfmac\w*|v_wmma\w*|v_swmmac\w*)\b", re.M)


@dataclass
class Launch:
    """One recorded kernel launch of one runner."""

    kernel: object  # triton JITFunction (or gluon's)
    runner: str
    key: tuple[int, ...] | None  # None: the fallback
    grid: tuple[int, ...]
    args: tuple
    kwargs: dict

    def describe(self) -> dict:
        return {
            "kernel": self.kernel.__name__,
            "runner": self.runner,
            "key": list(self.key) if self.key else None,
            "grid": list(self.grid),
            "launch": {k: v if isinstance(v, (bool, int, float, str)) else str(v)
                       for k, v in sorted(self.kwargs.items())},
        }


# The one package a generated file may import that cannot be installed here
# (ROCm only): its functions are stubbed.
_STUBBED = "aiter"


class AiterCalled(Exception):
    """An aiter runner was called: it has no Triton kernels to compile."""


def _stub_aiter(source: str) -> None:
    """aiter cannot be installed here: give the submission's `from aiter... import`
    lines modules whose functions raise AiterCalled."""
    if importlib.util.find_spec(_STUBBED) is not None:
        return

    def called(*args, **kwargs):
        raise AiterCalled

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == _STUBBED:
            parts = node.module.split(".")
            for i in range(1, len(parts) + 1):
                sys.modules.setdefault(".".join(parts[:i]), types.ModuleType(".".join(parts[:i])))
            for alias in node.names:
                setattr(sys.modules[node.module], alias.name, called)


def _meta_inputs(key: tuple[int, int, int, int], fp8_dtype):
    """The task's input tuple as meta tensors: shapes, strides and dtypes only."""
    import torch

    batch, kv_len, q_seq_len, num_heads = key
    total_q, total_kv = batch * q_seq_len, batch * kv_len
    meta = {"device": "meta"}
    q = torch.empty((total_q, num_heads, QK_DIM), dtype=torch.bfloat16, **meta)
    kv_data = {
        "bf16": torch.empty((total_kv, 1, QK_DIM), dtype=torch.bfloat16, **meta),
        "fp8": (torch.empty((total_kv, 1, QK_DIM), dtype=fp8_dtype, **meta),
                torch.empty((1,), dtype=torch.float32, **meta)),
        "mxfp4": (torch.empty((total_kv, 1, QK_DIM // 2), dtype=torch.uint8, **meta),
                  torch.empty((-(-total_kv // 256) * 256, 24), dtype=torch.uint8, **meta)),
    }
    qo_indptr = torch.empty((batch + 1,), dtype=torch.int32, **meta)
    kv_indptr = torch.empty((batch + 1,), dtype=torch.int32, **meta)
    config = {
        "batch_size": batch, "num_heads": num_heads, "num_kv_heads": 1, "qk_head_dim": QK_DIM,
        "kv_lora_rank": KV_LORA, "qk_rope_head_dim": QK_DIM - KV_LORA, "v_head_dim": KV_LORA,
        "q_seq_len": q_seq_len, "kv_seq_len": kv_len, "sm_scale": QK_DIM ** -0.5,
    }
    return q, kv_data, qo_indptr, kv_indptr, config


def record_launches(source: str, fp8_format: str) -> list[Launch]:
    """Import the submission and call every runner (RUNNERS, then run_fallback on
    FALLBACK_PROBE) with meta inputs, recording each Triton launch in order."""
    import torch
    from triton.runtime.jit import JITFunction

    from generator.gpu.harness import import_submission

    _stub_aiter(source)
    module = import_submission(source)
    launches: list[Launch] = []
    current: dict = {}
    for obj in vars(module).values():
        if isinstance(obj, JITFunction):
            def record(*args, grid, warmup, _kernel=obj, **kwargs):
                launches.append(Launch(_kernel, current["runner"], current["key"],
                                       tuple(grid), args, kwargs))
            obj.run = record
    fp8 = {"e4m3fn": torch.float8_e4m3fn, "e4m3fnuz": torch.float8_e4m3fnuz}[fp8_format]
    runners = [(key, fn) for key, fn in module.RUNNERS.items()]
    runners.append((None, module.run_fallback))
    for key, fn in runners:
        current.update(runner=fn.__name__, key=key)
        try:
            fn(*_meta_inputs(key or FALLBACK_PROBE, fp8))
        except AiterCalled:
            pass
    return launches


def _compile(launch: Launch, arch):
    """triton.compile of one launch, specialised as the JIT would at run time."""
    import triton
    from triton import knobs
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource, make_backend
    from triton.runtime.jit import create_function_from_signature

    target = GPUTarget(arch.vendor, arch.triton_arch, arch.warp_size)
    backend = make_backend(target)
    kernel = launch.kernel
    kwargs = dict(launch.kwargs)
    # What JITFunction.run adds before binding.
    kwargs["debug"] = kwargs.get("debug", kernel.debug) or knobs.runtime.debug
    if hasattr(knobs.compilation, "instrumentation_mode"):
        kwargs["instrumentation_mode"] = knobs.compilation.instrumentation_mode
    binder = create_function_from_signature(kernel.signature, kernel.params, backend)
    bound, specialization, options = binder(*launch.args, **kwargs)
    options, signature, constexprs, attrs = kernel._pack_args(backend, kwargs, bound,
                                                              specialization, options)
    source_cls = ASTSource
    if kernel.is_gluon():
        from triton.experimental.gluon._runtime import GluonASTSource as source_cls
    src = source_cls(kernel, signature, constexprs, attrs)
    return triton.compile(src, target=target, options=options.__dict__)


def serialized_wgmma_warnings(ptxas_log: str) -> list[str]:
    """ptxas's C7514/C7515 warnings in a log, without the temporary file's name
    and line (so that the report is deterministic), each once, sorted."""
    out = set()
    for line in _WGMMA_SERIALIZED.findall(ptxas_log):
        # "ptxas /tmp/x.ptx, line 9; warning : ..." or "ptxas info    : ..."
        text = re.sub(r"^\s*ptxas\b[^:]*:\s*", "", line)
        out.add(re.sub(r"\s+", " ", text).strip())
    return sorted(out)


def main_loop(sass: str) -> dict | None:
    """The kernel's largest loop in its SASS (the longest backward branch's
    span): how many instructions one iteration issues per warp, and how many of
    them are barriers (BAR), and each opcode (without modifiers) with its count,
    most frequent first (a list, so that JSON keeps the order). None for a kernel without a loop. Branches after
    the last EXIT are out-of-line slow paths (an mbarrier wait's retry jumps
    back from there), not loops. A static count, for comparing kernels on a
    CPU; the GPU's profile says where time goes."""
    instrs = [(int(addr, 16), op.split(".")[0], rest) for addr, op, rest in _SASS_INSTR.findall(sass)]
    end = max((addr for addr, op, _ in instrs if op == "EXIT"), default=None)
    spans = []
    for addr, op, rest in instrs:
        target = re.search(r"0x([0-9a-f]+)", rest) if op == "BRA" else None
        if target and int(target.group(1), 16) < addr and (end is None or addr < end):
            spans.append((int(target.group(1), 16), addr))
    if not spans:
        return None
    lo, hi = max(spans, key=lambda span: (span[1] - span[0], span[0]))
    body = [op for addr, op, _ in instrs if lo <= addr <= hi]
    counts: dict[str, int] = {}
    for op in body:
        counts[op] = counts.get(op, 0) + 1
    # most frequent first, then by name: deterministic, and the head is the story
    opcodes = [[op, n] for op, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
    return {"instructions": len(body), "barriers": counts.get("BAR", 0), "opcodes": opcodes}


def _ptxas_path() -> str:
    """The ptxas Triton itself runs for sm90 (3.6: triton/backends/nvidia/bin/ptxas;
    later versions ship a newer one beside it for the PTX they emit)."""
    from triton.backends.nvidia.compiler import get_ptxas

    return get_ptxas(90).path


def _cuda_figures(compiled) -> dict:
    from triton import knobs

    cuobjdump = knobs.nvidia.cuobjdump.path
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "kernel.cubin")
        with open(path, "wb") as f:
            f.write(compiled.asm["cubin"])
        usage = subprocess.check_output([cuobjdump, "-res-usage", path], text=True)
        sass = subprocess.check_output([cuobjdump, "-sass", path], text=True)
        ptx = os.path.join(tmp, "kernel.ptx")
        with open(ptx, "w") as f:
            f.write(compiled.asm["ptx"])
        ptxas = subprocess.run([_ptxas_path(), "-arch=sm_90a", "-v", ptx,
                                "-o", os.path.join(tmp, "again.cubin")],
                               capture_output=True, text=True, check=True)
    serialized = serialized_wgmma_warnings(ptxas.stdout + ptxas.stderr)
    match = _RES_USAGE.search(usage)
    if match is None:
        raise RuntimeError(f"cannot read cuobjdump -res-usage output:\n{usage}")
    regs, stack, static_shared, local = (int(g) for g in match.groups()[1:])
    mma: dict[str, int] = {}
    # TMA loads (UTMALDG) in the SASS, and how many carry an L2 cache policy
    # (a `desc[...]` operand: l2_policy).
    tma = {"loads": 0, "l2_hinted": 0}
    for _, op, rest in _SASS_INSTR.findall(sass):
        if "MMA" in op.split(".")[0]:
            mma[op] = mma.get(op, 0) + 1
        elif op.split(".")[0] == "UTMALDG":
            tma["loads"] += 1
            tma["l2_hinted"] += "desc[" in rest
    return {
        "registers": regs,
        # The driver's local memory size per thread (stack frame + local), which
        # Triton reports as n_spills = bytes / 4 on a GPU.
        "local_bytes": stack + local,
        "spilled_registers": (stack + local) // 4,
        "shared_bytes": compiled.metadata.shared,
        "static_shared_bytes": static_shared,
        "mma": mma,
        "tma_loads": tma,
        "main_loop": main_loop(sass),
        "wgmma_serialized": bool(serialized),
        "wgmma_serialized_warnings": serialized,
    }


def _hip_figures(compiled) -> dict:
    asm = compiled.asm["amdgcn"]
    meta = {k: int(v) for k, v in _AMD_META.findall(asm)}
    comment = {k: int(v) for k, v in _AMD_COMMENT.findall(asm)}
    mma: dict[str, int] = {}
    for op in _AMD_MMA.findall(asm):
        mma[op] = mma.get(op, 0) + 1
    return {
        # .vgpr_count is the unified count (arch VGPRs aligned to 4, plus AGPRs).
        "registers": meta["vgpr_count"],
        "vgprs": comment["NumVgprs"],
        "agprs": meta.get("agpr_count", comment.get("NumAgprs", 0)),
        "sgprs": meta["sgpr_count"],
        "spilled_registers": meta["vgpr_spill_count"],
        "sgpr_spills": meta["sgpr_spill_count"],
        "scratch_bytes": meta["private_segment_fixed_size"],
        "shared_bytes": max(compiled.metadata.shared, meta["group_segment_fixed_size"]),
        "mma": mma,
    }


def compile_figures(launch: Launch, arch) -> dict:
    compiled = _compile(launch, arch)
    figures = _cuda_figures(compiled) if arch.vendor == "cuda" else _hip_figures(compiled)
    figures["num_warps"] = compiled.metadata.num_warps
    return figures


# ---------------------------------------------------------------------------
# Worker processes
# ---------------------------------------------------------------------------

_WORKER: dict = {}


def _init_worker(source: str, fp8_format: str) -> None:
    os.environ.pop("TRITON_INTERPRET", None)
    warnings.filterwarnings("ignore", message="kpack is deprecated")
    warnings.filterwarnings("ignore", message="TRITON_DEFAULT_FP_FUSION")
    _WORKER["launches"] = record_launches(source, fp8_format)


def _describe_all() -> list[dict]:
    return [launch.describe() for launch in _WORKER["launches"]]


def _figures_of(index: int, arch_name: str) -> dict:
    """The figures of one launch, or {"error": why} when it does not compile
    (the innermost cause: Triton's CompilationError chain names the frame first)."""
    from generator.core.occupancy import ARCHS

    try:
        return compile_figures(_WORKER["launches"][index], ARCHS[arch_name])
    except Exception as exc:  # noqa: BLE001  (reported, with the kernel's name, by the parent)
        while exc.__cause__ is not None:
            exc = exc.__cause__
        lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()] or [""]
        # a CompilationError's first line is where, its last one what
        what = lines[0] if len(lines) == 1 else f"{lines[0]} {lines[-1]}"
        return {"error": f"{type(exc).__name__}: {what}"}


def compile_build(source: str, fp8_format: str, arch_name: str, jobs: int) -> list[dict]:
    """Every Triton launch of a submission, each described and compiled for arch:
    one dict per launch, in runner order (launches, then figures)."""
    from generator.errors import GenError

    context = get_context("spawn")
    try:
        with ProcessPoolExecutor(max_workers=max(jobs, 1), mp_context=context,
                                 initializer=_init_worker, initargs=(source, fp8_format)) as pool:
            rows = pool.submit(_describe_all).result()
            futures = [pool.submit(_figures_of, i, arch_name) for i in range(len(rows))]
            for row, future in zip(rows, futures):
                row.update(future.result())
    except BrokenProcessPool:
        # The compiler (LLVM) ends the process on some errors, e.g. a launch
        # option it cannot parse: its own message is on stderr above.
        raise GenError(f"a compiler process died while compiling for {arch_name} with this "
                       "triton (its message, if it printed one, is above)") from None
    failed = [f"{row['kernel']}: {row['error']}" for row in rows if "error" in row]
    if failed:
        raise GenError(f"cannot compile for {arch_name} with this triton: " + "; ".join(failed))
    return rows
