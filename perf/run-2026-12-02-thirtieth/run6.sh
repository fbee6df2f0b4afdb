#!/usr/bin/env bash
# Sixth device call (thirtieth session): b32 kv1024 on a 3-stage ring again
# (specs/h200-s3.yaml; s3_b a copy), one process (400 calls a file, shuffled,
# L2 dirty) against three copies of the build.
set -uo pipefail
R=perf/run-2026-12-02-thirtieth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run6.txt"
BOUND_SHUFFLE=1 BOUND_SHAPES=32x1024 BOUND_STATES=dirty BOUND_RUNS=400 timeout 300 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound6.json" $V/base_a.py $V/base_b.py $V/base_c.py $V/s3.py \
  $V/s3_b.py 2>&1 | tee "$OUT/bound6.log" | tail -2
BOUND_SHUFFLE=1 BOUND_SHAPES=32x1024 BOUND_STATES=dirty BOUND_RUNS=400 timeout 300 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound6b.json" $V/base_a.py $V/base_b.py $V/base_c.py $V/s3.py \
  $V/s3_b.py 2>&1 | tee "$OUT/bound6b.log" | tail -2
