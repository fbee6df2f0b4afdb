"""GPU architectures the resource report compiles for, and their occupancy rules.

Pure arithmetic and data, no torch or Triton: the spec stage reads ARCHS to
validate `target.arch`, so it lives with the build stages. The figures a
compiled kernel reports (registers, shared memory / LDS, warps per block) turn
into how many blocks (workgroups) fit on one SM (CU) and what limits them. Unit-tested against hand-worked
figures (tests/test_occupancy.py) and against the H200's Nsight Compute
figures (255 registers x 4 warps -> 2 blocks per SM).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class Arch:
    """One GPU architecture: Triton's compile target and the per-SM (per-CU) limits."""

    name: str
    vendor: str  # "cuda" | "hip": Triton's backend name
    triton_arch: int | str  # GPUTarget's arch: 90, "gfx950"
    warp_size: int
    gpu: str  # the GPU it stands for, for the report's header


# NVIDIA sm90 (H100/H200), CUDA occupancy calculator constants for compute
# capability 9.0 (CUDA C Programming Guide, "Technical Specifications per
# Compute Capability"; cuda_occupancy.h).
SM90_REGS_PER_SM = 65536
SM90_SUB_PARTITIONS = 4  # the register file is split in four; a warp lives in one
SM90_REG_ALLOC_UNIT = 256  # registers, allocated per warp
SM90_MAX_WARPS = 64
SM90_MAX_BLOCKS = 32
SM90_SMEM_PER_SM = 228 * 1024
SM90_SMEM_PER_BLOCK = 227 * 1024
SM90_SMEM_RESERVED = 1024  # per block, for the system
SM90_SMEM_ALLOC_UNIT = 128

# AMD CDNA3/CDNA4 (gfx942 MI300X, gfx950 MI355X): four SIMDs per CU; each SIMD
# lane holds 512 unified registers (arch VGPRs + AGPRs), allocated in granules
# of 8; at most 8 waves per SIMD. LDS per CU: 64 KiB on gfx942, 160 KiB on
# gfx950 (LLVM's AMDGPU feature AddressableLocalMemorySize163840, the one
# libtriton's gfx950 target carries). LDS is allocated in 512-byte granules.
CDNA_SIMDS = 4
CDNA_REGS_PER_LANE = 512
CDNA_REG_GRANULE = 8
CDNA_MAX_WAVES_PER_SIMD = 8
CDNA_LDS_GRANULE = 512
CDNA_LDS_PER_CU = MappingProxyType({"gfx942": 64 * 1024, "gfx950": 160 * 1024})

ARCHS = MappingProxyType(
    {
        a.name: a
        for a in (
            Arch("sm90", "cuda", 90, 32, "NVIDIA H100/H200"),
            Arch("gfx950", "hip", "gfx950", 64, "AMD MI355X (CDNA4)"),
            Arch("gfx942", "hip", "gfx942", 64, "AMD MI300X (CDNA3)"),
        )
    }
)
# The most shared memory (LDS) one block (workgroup) may use, per architecture.
MAX_SHARED_PER_BLOCK = MappingProxyType({"sm90": SM90_SMEM_PER_BLOCK, **CDNA_LDS_PER_CU})
# The architecture a target compiles for when its spec names none.
DEFAULT_ARCH = MappingProxyType({"cuda": "sm90", "rocm": "gfx950"})


@dataclass(frozen=True)
class Occupancy:
    """How many blocks (workgroups) of one kernel one SM (CU) holds, and why."""

    blocks: int  # per SM (sm90) or per CU (CDNA)
    waves: float  # warps per SM (sm90) or waves per SIMD (CDNA)
    max_waves: int  # the hardware's limit for `waves`
    # what sets `blocks`, "+"-joined when several do: registers, shared, warps,
    # blocks (sm90); registers, lds, waves (CDNA)
    limiter: str

    @property
    def fraction(self) -> float:
        return self.waves / self.max_waves

    def as_dict(self, arch: str) -> dict:
        unit, per = ("blocks_per_sm", "warps_per_sm") if arch == "sm90" else (
            "workgroups_per_cu", "waves_per_simd")
        waves = int(self.waves) if float(self.waves).is_integer() else round(self.waves, 2)
        return {unit: self.blocks, per: waves, "fraction": round(self.fraction, 4),
                "limiter": self.limiter}


def _round_up(n: int, unit: int) -> int:
    return -(-n // unit) * unit


def _pick(limits: dict[str, int]) -> tuple[int, str]:
    """The smallest limit and what sets it ("registers+shared" when both do)."""
    least = min(limits.values())
    return least, "+".join(name for name, value in limits.items() if value == least)


def sm90_occupancy(registers: int, num_warps: int, shared_bytes: int) -> Occupancy:
    """Blocks per SM on sm90 from registers per thread, warps per block and the
    shared memory one block uses (static + dynamic, without the 1 KiB reserve)."""
    regs_per_warp = _round_up(max(registers, 1) * 32, SM90_REG_ALLOC_UNIT)
    warps_per_partition = SM90_REGS_PER_SM // SM90_SUB_PARTITIONS // regs_per_warp
    by_regs = warps_per_partition * SM90_SUB_PARTITIONS // num_warps
    smem = _round_up(shared_bytes + SM90_SMEM_RESERVED, SM90_SMEM_ALLOC_UNIT)
    by_smem = 0 if shared_bytes > SM90_SMEM_PER_BLOCK else SM90_SMEM_PER_SM // smem
    blocks, limiter = _pick({
        "registers": by_regs,
        "shared": by_smem,
        "warps": SM90_MAX_WARPS // num_warps,
        "blocks": SM90_MAX_BLOCKS,
    })
    return Occupancy(blocks, blocks * num_warps, SM90_MAX_WARPS, limiter)


def cdna_occupancy(arch: str, total_vgprs: int, num_warps: int, lds_bytes: int) -> Occupancy:
    """Workgroups per CU and waves per SIMD on CDNA3/4 from the unified register
    count per lane (arch VGPRs + AGPRs), waves per workgroup and its LDS bytes.

    A workgroup's waves are spread over the four SIMDs, so a 4-wave workgroup
    takes one wave slot on each SIMD and an 8-wave one two."""
    alloc = _round_up(max(total_vgprs, 1), CDNA_REG_GRANULE)
    waves_by_regs = min(CDNA_MAX_WAVES_PER_SIMD, CDNA_REGS_PER_LANE // alloc)
    slots = num_warps if num_warps < CDNA_SIMDS else CDNA_SIMDS * -(-num_warps // CDNA_SIMDS)
    cu_slots = CDNA_SIMDS * CDNA_MAX_WAVES_PER_SIMD
    limits = {
        "registers": CDNA_SIMDS * waves_by_regs // slots,
        "lds": (CDNA_LDS_PER_CU[arch] // _round_up(lds_bytes, CDNA_LDS_GRANULE)
                if lds_bytes else cu_slots),
        "waves": cu_slots // slots,
    }
    if lds_bytes > CDNA_LDS_PER_CU[arch]:
        limits["lds"] = 0
    blocks, limiter = _pick(limits)
    return Occupancy(blocks, blocks * num_warps / CDNA_SIMDS, CDNA_MAX_WAVES_PER_SIMD, limiter)


def occupancy(arch: str, *, registers: int, num_warps: int, shared_bytes: int) -> Occupancy:
    """Dispatch on the architecture's name (a key of ARCHS)."""
    if arch == "sm90":
        return sm90_occupancy(registers, num_warps, shared_bytes)
    return cdna_occupancy(arch, registers, num_warps, shared_bytes)
