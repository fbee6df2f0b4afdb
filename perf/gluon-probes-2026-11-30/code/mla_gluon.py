"""Probe: Gluon MLA decode for Hopper (TMA ring + wgmma, KV rows as M).

S^T = K Q^T  (fp8 x fp8 wgmma, M = BLOCK_N KV rows, N = 16 heads, K = 576 in 9 chunks)
O^T = V^T P^T (fp16 wgmma, M = 512 / V_PARTS, N = 16, K = BLOCK_N; V converted fp8 -> fp16 into smem)
"""
import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (
    tma, mbarrier, fence_async_shared, warpgroup_mma, warpgroup_mma_wait, warpgroup_mma_init,
)

KV_LORA = gl.constexpr(512)
QK_DIM = gl.constexpr(576)
DCHUNK = gl.constexpr(64)
NCHUNK = gl.constexpr(9)
VCHUNK = gl.constexpr(8)


@gluon.constexpr_function
def _s_layout(num_warps, heads):
    # scores (BLOCK_N, heads): one warpgroup per group of heads
    wg = num_warps // 4
    return gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, wg], instr_shape=[16, heads // wg, 32])


@gluon.constexpr_function
def _o_layout(num_warps, heads):
    # output (512, heads): warpgroups split the 512 output dims
    return gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[num_warps, 1], instr_shape=[16, heads, 16])


@gluon.constexpr_function
def _q_ld_layout(num_warps):
    return gl.BlockedLayout([1, 8 // (num_warps // 4)], [4, 8], [4, num_warps // 4], [1, 0])


@gluon.constexpr_function
def _cvt_layout(num_warps):
    return gl.BlockedLayout([1, 16], [8, 4], [num_warps, 1], [1, 0])


@gluon.jit
def _issue_tile(kv_desc, kv_smem, bar, row, stage, pred, BLOCK_N: gl.constexpr):
    """TMA one BLOCK_N x 576 KV tile as nine 64-wide column chunks onto one barrier."""
    mbarrier.expect(bar, BLOCK_N * QK_DIM, pred=pred)
    for c in gl.static_range(NCHUNK):
        tma.async_copy_global_to_shared(kv_desc, [row, c * DCHUNK], bar, kv_smem.index(stage * NCHUNK + c),
                                        pred=pred)


@gluon.jit
def _scores(kv_smem, q_smem, stage, s_zero):
    """S^T = K Q^T over the nine chunks, asynchronously (returns the wgmma token)."""
    s = warpgroup_mma(kv_smem.index(stage * NCHUNK), q_smem.index(0).permute((1, 0)), s_zero,
                      use_acc=False, is_async=True)
    for c in gl.static_range(1, NCHUNK):
        s = warpgroup_mma(kv_smem.index(stage * NCHUNK + c), q_smem.index(c).permute((1, 0)), s, is_async=True)
    return s


@gluon.jit
def _convert_v(kv_smem, v16_smem, stage, FIRST: gl.constexpr, COUNT: gl.constexpr, cvt_layout: gl.constexpr):
    """fp8 V chunks FIRST..FIRST+COUNT of the tile -> fp16 columns of v16_smem."""
    for c in gl.static_range(COUNT):
        v8 = kv_smem.index(stage * NCHUNK + FIRST + c).load(cvt_layout)
        v16_smem.slice(c * DCHUNK, DCHUNK, dim=1).store(v8.to(gl.float16))


@gluon.jit
def _pv(acc, v16_smem, p_smem):
    """O^T += V^T P^T, waited for: ptxas serialises every wgmma of the kernel if
    an accumulator is touched while any wgmma is in flight."""
    fence_async_shared()
    gl.thread_barrier()
    acc = warpgroup_mma(v16_smem.permute((1, 0)), p_smem, acc, is_async=True)
    return warpgroup_mma_wait(num_outstanding=0, deps=(acc,))


@gluon.jit
def _store_out(acc, scale, q_row, pid_s, d0, OUT, PART_O, stride_o_t, stride_o_h,
               stride_po_s, stride_po_t, stride_po_h, WRITE_PARTIAL: gl.constexpr, o_layout: gl.constexpr):
    out = acc * scale[None, :]
    offs_d = d0 + gl.arange(0, acc.shape[0], layout=gl.SliceLayout(1, o_layout))
    offs_h = gl.arange(0, acc.shape[1], layout=gl.SliceLayout(0, o_layout))
    if WRITE_PARTIAL:
        ptrs = PART_O + pid_s * stride_po_s + q_row * stride_po_t + offs_h[None, :] * stride_po_h + offs_d[:, None]
        gl.store(ptrs, out.to(PART_O.dtype.element_ty))
    else:
        ptrs = OUT + q_row * stride_o_t + offs_h[None, :] * stride_o_h + offs_d[:, None]
        gl.store(ptrs, out.to(gl.bfloat16))


@gluon.jit
def mla_decode_gluon(
    Q, kv_desc, KV_SCALE, QO_INDPTR, KV_INDPTR, OUT, PART_O, PART_LSE,
    stride_q_t, stride_q_h, stride_o_t, stride_o_h,
    stride_po_s, stride_po_t, stride_po_h, stride_pl_s, stride_pl_t, num_splits,
    SM_SCALE_LOG2: gl.constexpr, Q_SCALE: gl.constexpr, FP8_MAX: gl.constexpr,
    NUM_HEADS: gl.constexpr, BLOCK_N: gl.constexpr, STAGES: gl.constexpr,
    WRITE_PARTIAL: gl.constexpr, V_PARTS: gl.constexpr, num_warps: gl.constexpr,
):
    gl.static_assert(num_warps == 4 or num_warps == 8)
    gl.static_assert(BLOCK_N == 64)
    gl.static_assert(V_PARTS == 1 or V_PARTS == 2)
    pid_b = gl.program_id(0)
    pid_s = gl.program_id(1)
    VW: gl.constexpr = KV_LORA // V_PARTS

    # -- layouts --
    s_layout: gl.constexpr = _s_layout(num_warps, NUM_HEADS)
    o_layout: gl.constexpr = _o_layout(num_warps, NUM_HEADS)
    q_ld_layout: gl.constexpr = _q_ld_layout(num_warps)
    cvt_layout: gl.constexpr = _cvt_layout(num_warps)
    q_sh_layout: gl.constexpr = gl.NVMMASharedLayout.get_default_for([NUM_HEADS, DCHUNK], gl.float8e4nv)
    v16_layout: gl.constexpr = gl.NVMMASharedLayout.get_default_for([BLOCK_N, VW], gl.float16)
    p_layout: gl.constexpr = gl.NVMMASharedLayout.get_default_for([BLOCK_N, NUM_HEADS], gl.float16)

    # -- shared memory --
    kv_smem = gl.allocate_shared_memory(gl.float8e4nv, [STAGES * NCHUNK, BLOCK_N, DCHUNK], kv_desc.layout)
    q_smem = gl.allocate_shared_memory(gl.float8e4nv, [NCHUNK, NUM_HEADS, DCHUNK], q_sh_layout)
    v16_smem = gl.allocate_shared_memory(gl.float16, [BLOCK_N, VW], v16_layout)
    p_smem = gl.allocate_shared_memory(gl.float16, [BLOCK_N, NUM_HEADS], p_layout)
    bars = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(STAGES):
        mbarrier.init(bars.index(i), count=1)

    # -- this program's KV range --
    kv_start = gl.load(KV_INDPTR + pid_b)
    kv_len = gl.load(KV_INDPTR + pid_b + 1) - kv_start
    per_split = (kv_len + num_splits - 1) // num_splits
    split_len = (per_split + BLOCK_N - 1) // BLOCK_N * BLOCK_N
    lo = pid_s * split_len
    hi = gl.minimum(lo + split_len, kv_len)
    n_tiles = (gl.maximum(hi - lo, 0) + BLOCK_N - 1) // BLOCK_N
    row0 = kv_start + lo

    # -- prologue: fill the ring --
    for i in gl.static_range(STAGES):
        _issue_tile(kv_desc, kv_smem, bars.index(i), row0 + i * BLOCK_N, i, i < n_tiles, BLOCK_N)

    # -- Q: quantise to fp8 with the static scale, into shared memory --
    q_row = gl.load(QO_INDPTR + pid_b)
    offs_qh = gl.arange(0, NUM_HEADS, layout=gl.SliceLayout(1, q_ld_layout))
    offs_qd = gl.arange(0, DCHUNK, layout=gl.SliceLayout(0, q_ld_layout))
    q_ptrs = Q + q_row * stride_q_t + offs_qh[:, None] * stride_q_h + offs_qd[None, :]
    for c in gl.static_range(NCHUNK):
        qc = gl.load(q_ptrs + c * DCHUNK).to(gl.float32) / Q_SCALE
        qc = gl.minimum(gl.maximum(qc, -FP8_MAX), FP8_MAX)
        q_smem.index(c).store(qc.to(gl.float8e4nv))
    fence_async_shared()
    gl.thread_barrier()

    kv_scale = gl.load(KV_SCALE)
    qk_scale = SM_SCALE_LOG2 * Q_SCALE * kv_scale

    m_i = gl.full([NUM_HEADS], float("-inf"), gl.float32, layout=gl.SliceLayout(0, s_layout))
    l_i = gl.zeros([NUM_HEADS], gl.float32, layout=gl.SliceLayout(0, s_layout))
    s_zero = gl.zeros([BLOCK_N, NUM_HEADS], gl.float32, layout=s_layout)
    acc0 = gl.zeros([VW, NUM_HEADS], gl.float32, layout=o_layout)
    acc1 = gl.zeros([VW if V_PARTS == 2 else 16, NUM_HEADS], gl.float32, layout=o_layout)
    offs_n0 = gl.arange(0, BLOCK_N, layout=gl.SliceLayout(1, s_layout))

    for i in range(n_tiles):
        stage = i % STAGES
        mbarrier.wait(bars.index(stage), (i // STAGES) & 1)
        s_tok = _scores(kv_smem, q_smem, stage, s_zero)
        # V's first part converts while the score MMAs run
        _convert_v(kv_smem, v16_smem, stage, 0, VCHUNK // V_PARTS, cvt_layout)
        s = warpgroup_mma_wait(num_outstanding=0, deps=(s_tok,))

        # -- online softmax along the KV axis --
        offs_n = lo + i * BLOCK_N + offs_n0
        s = gl.where((offs_n < hi)[:, None], s * qk_scale, float("-inf"))
        m_new = gl.maximum(m_i, gl.max(s, axis=0))
        p = gl.exp2(s - m_new[None, :])
        alpha = gl.exp2(m_i - m_new)
        l_i = l_i * alpha + gl.sum(p, axis=0)
        m_i = m_new
        alpha_o = gl.convert_layout(alpha, gl.SliceLayout(0, o_layout))
        p_smem.store(p.to(gl.float16))

        acc0 = _pv(acc0 * alpha_o[None, :], v16_smem, p_smem)
        if V_PARTS == 2:
            gl.thread_barrier()
            _convert_v(kv_smem, v16_smem, stage, VCHUNK // 2, VCHUNK // 2, cvt_layout)
            acc1 = _pv(acc1 * alpha_o[None, :], v16_smem, p_smem)

        # -- refill this stage with the tile STAGES ahead (its readers are done) --
        nxt = i + STAGES
        _issue_tile(kv_desc, kv_smem, bars.index(stage), row0 + nxt * BLOCK_N, stage, nxt < n_tiles, BLOCK_N)

    for i in gl.static_range(STAGES):
        mbarrier.invalidate(bars.index(i))

    # -- epilogue: V's scale is the KV scale; a split that saw no key writes zeros, lse -inf --
    l_o = gl.convert_layout(l_i, gl.SliceLayout(0, o_layout))
    seen = l_o > 0
    scale = kv_scale / gl.where(seen, l_o, 1.0)
    _store_out(acc0, scale, q_row, pid_s, 0, OUT, PART_O, stride_o_t, stride_o_h,
               stride_po_s, stride_po_t, stride_po_h, WRITE_PARTIAL, o_layout)
    if V_PARTS == 2:
        _store_out(acc1, scale, q_row, pid_s, VW, OUT, PART_O, stride_o_t, stride_o_h,
                   stride_po_s, stride_po_t, stride_po_h, WRITE_PARTIAL, o_layout)
    if WRITE_PARTIAL:
        m_o = gl.convert_layout(m_i, gl.SliceLayout(0, o_layout))
        lse = gl.where(seen, m_o + gl.log2(gl.where(seen, l_o, 1.0)), float("-inf"))
        offs_h = gl.arange(0, NUM_HEADS, layout=gl.SliceLayout(0, o_layout))
        gl.store(PART_LSE + pid_s * stride_pl_s + q_row * stride_pl_t + offs_h, lse)
