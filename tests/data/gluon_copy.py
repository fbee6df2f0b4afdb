"""A minimal Gluon kernel (32 threads per warp: NVIDIA only), for the test that
the resource report's compile helper handles @gluon.jit kernels."""

from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.jit
def gluon_copy(in_ptr, out_ptr, n, BLOCK: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    offs = gl.program_id(0) * BLOCK + gl.arange(0, BLOCK, layout=layout)
    mask = offs < n
    gl.store(out_ptr + offs, gl.load(in_ptr + offs, mask), mask)
