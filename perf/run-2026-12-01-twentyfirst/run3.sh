#!/usr/bin/env bash
# Third device call (twenty-first session): mkvar.py lsum (the row sums reduced under each tile's first PV wgmmas)
# against three copies of the build (379261b's
# kernels), one process, all eight shapes, 300 calls a file; outputs
# compared (CMP_SHAPES: the six split shapes and b256 kv1024).
set -uo pipefail
R=perf/run-2026-12-01-twentyfirst
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv > "$OUT/gpu-run3.txt" 2>&1
CMP_SHAPES=4x1024,4x8192,32x1024,32x8192,64x1024,64x8192,256x1024 timeout 150 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp3.json" $V/base_a.py $V/lsum_a.py \
  > "$OUT/cmp3.log" 2>&1; grep -o '"lsum_a": {[^}]*}' "$OUT/cmp3.log"
BOUND_SHUFFLE=1 BOUND_STATES=dirty BOUND_RUNS=300 timeout 250 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound3.json" $V/base_a.py $V/base_b.py $V/base_c.py \
  $V/lsum_a.py $V/lsum_b.py 2>&1 | tee "$OUT/bound3.log" | tail -8
