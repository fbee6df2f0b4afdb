"""The task's fixed facts (docs/contract.md), in one torch-free place.

DeepSeek-R1 forward-absorb MLA decode for GPU MODE `amd-mixed-mla`: one
576-dim latent KV head shared by every query head, 512-dim output.
"""

from __future__ import annotations

import math
from types import MappingProxyType

# A KV row: KV_LORA latent dims (which are also V) followed by ROPE_DIM rope dims.
QK_DIM = 576
KV_LORA = 512
ROPE_DIM = 64
SM_SCALE = 1.0 / math.sqrt(QK_DIM)
DEFAULT_HEADS = 16

# Per-tensor fp8 formats and their largest finite value: e4m3fn on MI355X
# (gfx950) and NVIDIA GPUs, e4m3fnuz on MI300X (gfx942).
FP8_FORMATS = ("e4m3fn", "e4m3fnuz")
FP8_MAX = MappingProxyType({"e4m3fn": 448.0, "e4m3fnuz": 240.0})
# Smallest normal exponent of each fp8 format.
FP8_MIN_EXP = MappingProxyType({"e4m3fn": -6, "e4m3fnuz": -7})

# The KV copies the task hands every call, and the bytes one KV row takes in each.
MX_BLOCK = 32
# The e2m1 magnitudes of MXFP4 codes 0 .. 7 (bit 3 is the sign).
E2M1_VALUES = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0)
KV_FORMATS = ("bf16", "fp8", "mxfp4")
KV_ROW_BYTES = MappingProxyType(
    {"fp8": QK_DIM, "bf16": 2 * QK_DIM, "mxfp4": QK_DIM // 2 + QK_DIM // MX_BLOCK}
)

# The contract's correctness shapes: (batch, kv_len).
CONTRACT_TEST_SHAPES = ((4, 1024), (32, 1024), (64, 8192), (256, 8192))

# The leaderboard's correctness rule: |out - ref| <= ATOL + RTOL * |ref| per
# element, passing with a warning while at most MAX_FAIL_FRACTION fail.
LB_ATOL, LB_RTOL, LB_MAX_FAIL_FRACTION = 0.1, 0.1, 0.05
