#!/usr/bin/env bash
# Fifth device call (twenty-third session): consumers 2 (two warpgroups on
# alternate tiles, 2-stage rings) at the same splits on b4 kv8192, b32 kv1024
# and b64 kv1024 (specs/h200-c2a.yaml; c2b: without lazy_rescale and
# early_refill there) against three copies of the build (09b4ace): outputs,
# one-process timing, 300 calls a file.
set -uo pipefail
R=perf/run-2026-12-01-twentythird
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run5.txt"
CMP_SHAPES=4x8192,32x1024,64x1024 timeout 100 python3 perf/run-2026-12-01-fifteenth/cmp.py \
  "$OUT/cmp5.json" $V/base_a.py $V/c2a_a.py $V/c2b_a.py > "$OUT/cmp5.log" 2>&1; tail -c 1200 "$OUT/cmp5.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=4x8192,32x1024,64x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 150 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound5.json" $V/base_a.py $V/base_b.py $V/base_c.py \
  $V/c2a_a.py $V/c2a_b.py $V/c2b_a.py 2>&1 | tee "$OUT/bound5.log" | tail -6
