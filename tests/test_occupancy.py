"""Occupancy arithmetic against hand-worked figures and the H200's Nsight
Compute figures (ANCHORS.md: 255 registers x 4 warps, 89 KB shared -> 2 blocks,
12.5%; a 168-register reduce kernel -> 3 blocks, 18.75%)."""

import pytest

from generator.core.occupancy import cdna_occupancy, occupancy, sm90_occupancy


def test_sm90_255_registers_128_threads_is_2_blocks():
    # 255 x 32 = 8160 -> 8192 per warp; 16384 per sub-partition holds 2 warps;
    # 4 sub-partitions: 8 warps per SM, 2 blocks of 4 warps.
    occ = sm90_occupancy(255, 4, 0)
    assert (occ.blocks, occ.waves, occ.limiter) == (2, 8, "registers")
    assert occ.fraction == 0.125


def test_sm90_89_kb_shared_is_2_blocks():
    # 89 KB + 1 KB reserved = 90 KB per block; 228 KB / 90 KB = 2.5
    occ = sm90_occupancy(32, 4, 89 * 1024)
    assert (occ.blocks, occ.limiter) == (2, "shared")
    assert sm90_occupancy(255, 4, 89 * 1024).limiter == "registers+shared"


def test_sm90_committed_attention_kernel_matches_ncu():
    # Triton's 89,088 dynamic bytes (ncu: 89.09 KB) plus the cubin's 1 KiB static
    occ = sm90_occupancy(255, 4, 89088 + 1024)
    assert occ.as_dict("sm90") == {"blocks_per_sm": 2, "warps_per_sm": 8, "fraction": 0.125,
                                   "limiter": "registers+shared"}


def test_sm90_168_register_reduce_is_3_blocks():
    # 168 x 32 = 5376 (a multiple of 256); 16384 // 5376 = 3 warps per sub-partition
    occ = sm90_occupancy(168, 4, 0)
    assert (occ.blocks, occ.waves, occ.fraction) == (3, 12, 0.1875)


@pytest.mark.parametrize("regs, warps, blocks, limiter", [
    (32, 4, 16, "registers+warps"),  # 64 warps per SM at most, and 1024 per warp
    (32, 1, 32, "blocks"),       # 32 blocks per SM at most
    (40, 4, 12, "registers"),    # 1280 per warp: 12 per partition
    (64, 8, 4, "registers"),     # 2048 per warp: 8 per partition, 32 warps
    (128, 8, 2, "registers"),
    (255, 8, 1, "registers"),
])
def test_sm90_limits(regs, warps, blocks, limiter):
    occ = sm90_occupancy(regs, warps, 0)
    assert (occ.blocks, occ.limiter) == (blocks, limiter)


def test_sm90_shared_over_the_block_limit_fits_nothing():
    assert sm90_occupancy(32, 4, 228 * 1024).blocks == 0
    assert sm90_occupancy(32, 4, 227 * 1024).blocks == 1


def test_gfx950_512_unified_registers_is_one_wave_per_simd():
    # 256 arch VGPRs + 256 AGPRs: the whole 512-entry file per lane
    occ = cdna_occupancy("gfx950", 512, 4, 68 * 1024)
    assert occ.as_dict("gfx950") == {"workgroups_per_cu": 1, "waves_per_simd": 1,
                                     "fraction": 0.125, "limiter": "registers"}


def test_gfx950_granule_8_and_8_waves_max():
    assert cdna_occupancy("gfx950", 80, 4, 0).waves == 6       # 512 // 80
    assert cdna_occupancy("gfx950", 81, 4, 0).waves == 5       # 88 per lane
    assert cdna_occupancy("gfx950", 32, 4, 0).waves == 8       # capped at 8
    assert cdna_occupancy("gfx950", 128, 8, 0).waves == 4      # 2 workgroups of 2 waves/SIMD


def test_gfx950_lds_160_kib_and_gfx942_64_kib():
    # triton 3.9's 137 KB tile: one workgroup per CU on gfx950, none on gfx942
    occ = cdna_occupancy("gfx950", 404, 4, 137 * 1024)
    assert (occ.blocks, occ.limiter) == (1, "registers+lds")
    assert cdna_occupancy("gfx950", 128, 4, 137 * 1024).limiter == "lds"
    assert cdna_occupancy("gfx950", 128, 4, 70 * 1024).blocks == 2
    assert cdna_occupancy("gfx942", 128, 4, 70 * 1024).blocks == 0
    assert cdna_occupancy("gfx942", 128, 4, 32 * 1024).blocks == 2


def test_dispatch_by_arch_name():
    assert occupancy("sm90", registers=255, num_warps=4, shared_bytes=0).blocks == 2
    assert occupancy("gfx950", registers=512, num_warps=4, shared_bytes=0).blocks == 1


# Shared memory (LDS) of the Triton attention kernel as triton 3.6 compiled it
# (gen resources, 2026-12, fp8 KV unless noted, 16 heads, one query token,
# the platform's default MMA type): (fields, sm90 bytes, gfx950 bytes).
TRITON36_SHARED = [
    (dict(block_n=16, num_stages=2), 36352, 17408),
    (dict(block_n=64, num_stages=3), 159744, 139264),
    (dict(block_n=64, num_stages=4, num_warps=8), 229376, 208896),
    (dict(block_n=128, num_stages=2), 161792, 139264),
    (dict(block_n=256, num_stages=8, kv_format="bf16"), 3926016, 3899392),
    (dict(block_n=64, num_stages=2, kv_format="bf16"), 159744, 139264),
    (dict(block_n=32, num_stages=1), 34816, 16384),
    (dict(block_n=256, num_stages=8), 1976320, 1949696),
    (dict(block_n=64, num_stages=3, v_reload=False), 92160, 73728),
    (dict(block_n=64, num_stages=3, q_mode="fp8_static"), 159744, 139264),
    (dict(block_n=64, num_stages=3, block_q=8), 352256, 139264),
]


@pytest.mark.parametrize("fields, sm90, gfx950", TRITON36_SHARED)
def test_the_spec_stages_shared_floor_is_below_what_the_compiler_used(fields, sm90, gfx950):
    from generator.core.backends.triton import shared_floor

    cfg = {"kv_format": "fp8", **fields}
    assert shared_floor(cfg) <= min(sm90, gfx950)


def test_the_floor_refuses_the_tiles_no_gpu_can_hold():
    from generator.core.backends.triton import shared_floor
    from generator.core.occupancy import MAX_SHARED_PER_BLOCK

    for fields, sm90, gfx950 in TRITON36_SHARED:
        cfg = {"kv_format": "fp8", **fields}
        if sm90 > 1 << 20:  # the two tiles of several MB
            assert shared_floor(cfg) > max(MAX_SHARED_PER_BLOCK.values())
