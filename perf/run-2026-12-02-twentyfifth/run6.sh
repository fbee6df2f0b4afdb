#!/usr/bin/env bash
# Sixth device call (twenty-fifth session): the switches around pv_format
# fp8, run 5's lazy256 again (two copies) against two copies of the spec's
# build with pv_format fp8 (new_*), and b256 kv8192 with lazy_rescale alone
# (specs/h200-lazyonly.yaml). One process, 300 calls a file, shuffled, L2
# dirty.
set -uo pipefail
R=perf/run-2026-12-02-twentyfifth
V=$R/v
S=32x8192,64x8192,256x1024,256x8192
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run6.txt"
BOUND_SHUFFLE=1 BOUND_SHAPES=$S BOUND_STATES=dirty BOUND_RUNS=300 timeout 330 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound6.json" $V/new_a.py $V/new_b.py $V/lazy256.py $V/lazy256_b.py $V/lazyonly.py \
  2>&1 | tee "$OUT/bound6.log" | tail -5
