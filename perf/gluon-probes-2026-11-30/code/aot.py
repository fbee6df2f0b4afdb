"""Compile a (gluon) jit function for sm90 on a CPU, from example arguments."""
import inspect
import subprocess
import sys

import torch
import triton
from triton._C.libtriton import native_specialize_impl
from triton.backends.compiler import BaseBackend, GPUTarget


def compile_sm90(fn, args, constexprs, num_warps=4, num_stages=1):
    params = list(inspect.signature(fn.fn).parameters)
    signature, attrs, consts = {}, {}, {}
    for i, name in enumerate(params):
        if name in constexprs:
            signature[name] = "constexpr"
            consts[(i,)] = constexprs[name]
            continue
        ty, key = native_specialize_impl(BaseBackend, args[name], False, True, True)
        signature[name] = ty
        if ty == "constexpr":
            consts[(i,)] = args[name]
        if key == "D":
            attrs[(i,)] = [["tt.divisibility", 16]]
    src = fn.ASTSource(fn, signature, consts, attrs) if hasattr(fn, "ASTSource") else None
    from triton.experimental.gluon._runtime import GluonASTSource
    src = GluonASTSource(fn, signature, consts, attrs)
    k = triton.compile(src, target=GPUTarget("cuda", 90, 32),
                       options={"num_warps": num_warps, "num_stages": num_stages})
    return k


def res_usage(k):
    import os, tempfile
    d = tempfile.mkdtemp()
    p = os.path.join(d, "k.cubin")
    open(p, "wb").write(k.asm["cubin"])
    cuobjdump = os.path.join(os.path.dirname(triton.__file__), "backends/nvidia/bin/cuobjdump")
    out = subprocess.run([cuobjdump, "-res-usage", p], capture_output=True, text=True).stdout
    sass = subprocess.run([cuobjdump, "-sass", p], capture_output=True, text=True).stdout
    return out, sass
