#!/usr/bin/env bash
# First device call (twenty-sixth session): V's rows loaded before the
# softmax instead of after P's barrier (fp8 PV): e1 = the first group's rows
# (both loops), e2 = both groups' rows (the unclaimed loop), e3 = both groups
# and the early refill issued before the softmax. Outputs against the build
# (base), then one process, 300 calls a file, shuffled, L2 dirty.
set -uo pipefail
R=perf/run-2026-12-02-twentysixth
V=$R/v
S=4x8192,32x1024,32x8192,64x1024,64x8192,256x1024,256x8192
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run1.txt"
CMP_SHAPES=$S timeout 150 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp1.json" $V/base_a.py $V/e1.py $V/e2.py $V/e3.py \
  > "$OUT/cmp1.log" 2>&1
tail -8 "$OUT/cmp1.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=$S BOUND_STATES=dirty BOUND_RUNS=300 timeout 400 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound1.json" $V/base_a.py $V/base_b.py $V/e1.py $V/e2.py $V/e3.py \
  2>&1 | tee "$OUT/bound1.log" | tail -12
