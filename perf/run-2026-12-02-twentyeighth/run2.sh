#!/usr/bin/env bash
# Second device call (twenty-eighth session): the consumers-2 fold's shared
# buffer swizzled (fold-swizzle.patch: cmb_smem SwizzledSharedLayout(2, 1, 8)
# instead of (1, 1, 1); the wgmma accumulator layout's 8-byte stores and
# loads met 2-way bank conflicts on the plain layout) against the build
# (base_*): outputs, then one process (300 calls a file, shuffled, L2 dirty).
set -uo pipefail
R=perf/run-2026-12-02-twentyeighth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run2.txt"
CMP_SHAPES=32x8192,64x8192 timeout 120 python3 perf/run-2026-12-01-fifteenth/cmp.py \
  "$OUT/cmp2.json" $V/base_a.py $V/sw_a.py > "$OUT/cmp2.log" 2>&1
tail -2 "$OUT/cmp2.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=32x8192,64x8192 BOUND_STATES=dirty BOUND_RUNS=400 timeout 300 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound2.json" $V/base_a.py $V/base_b.py $V/sw_a.py $V/sw_b.py \
  2>&1 | tee "$OUT/bound2.log" | tail -3
