#!/usr/bin/env bash
# Fifth device call (thirtieth session): deeper rings on the one-warpgroup
# split shapes again, on today's kernels (specs/h200-s3.yaml: b32 kv1024 at 3
# stages; specs/h200-s4.yaml: b4 kv8192, b32 kv1024 and b64 kv1024 at 4).
# Outputs, then one process (400 calls a file, shuffled, L2 dirty) against
# two copies of the build.
set -uo pipefail
R=perf/run-2026-12-02-thirtieth
V=$R/v
S=4x8192,32x1024,64x1024
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run5.txt"
CMP_SHAPES=$S timeout 200 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp5.json" $V/base_a.py $V/s3.py $V/s4.py \
  > "$OUT/cmp5.log" 2>&1
grep -o '"vs_first": \[[^]]*\]' "$OUT/cmp5.log" | sort | uniq -c; tail -1 "$OUT/cmp5.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=$S BOUND_STATES=dirty BOUND_RUNS=400 timeout 300 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound5.json" $V/base_a.py $V/base_b.py $V/s3.py $V/s4.py \
  2>&1 | tee "$OUT/bound5.log" | tail -4
