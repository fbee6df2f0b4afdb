#!/usr/bin/env bash
# Fifth device call (twenty-fifth session): the switches around pv_format
# fp8 on the large shapes, against two copies of the spec's build with
# pv_format fp8 (new_*): v_lookahead on the b256 shapes (specs/h200-look256.yaml),
# lazy_rescale on b32 kv8192, b64 kv8192 and b256 kv8192 (with early_refill
# there; specs/h200-lazy256.yaml). One process, 300 calls a file, shuffled,
# L2 dirty.
set -uo pipefail
R=perf/run-2026-12-02-twentyfifth
V=$R/v
S=32x8192,64x8192,256x1024,256x8192
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run5.txt"
BOUND_SHUFFLE=1 BOUND_SHAPES=$S BOUND_STATES=dirty BOUND_RUNS=300 timeout 330 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound5.json" $V/new_a.py $V/new_b.py $V/look256.py $V/lazy256.py \
  2>&1 | tee "$OUT/bound5.log" | tail -5
