"""A Triton fp8 dot with max_num_imprecise_acc on sm90: Triton adds the partial
sums between the wgmmas, and ptxas serialises them (warning C7514). The test
that the resource report's serialised-wgmma flag sees what ptxas says."""

import triton
import triton.language as tl


@triton.jit
def fp8_dot_imprecise(A, B, C, K_TILES: tl.constexpr, IMPRECISE: tl.constexpr):
    offs_m = tl.arange(0, 64)
    offs_n = tl.arange(0, 64)
    offs_k = tl.arange(0, 128)
    acc = tl.zeros((64, 64), tl.float32)
    for k in range(K_TILES):
        a = tl.load(A + offs_m[:, None] * 128 * K_TILES + k * 128 + offs_k[None, :])
        b = tl.load(B + (k * 128 + offs_k)[:, None] * 64 + offs_n[None, :])
        acc = tl.dot(a, b, acc, max_num_imprecise_acc=IMPRECISE)
    tl.store(C + offs_m[:, None] * 64 + offs_n[None, :], acc)
