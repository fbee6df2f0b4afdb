#!/usr/bin/env bash
# Eleventh device call (twenty-second session): switches timed again behind
# v_row_pairs. specs/h200-lookahead.yaml: v_lookahead off on b4 kv8192, b32
# kv1024 and b32 kv8192, on for b256 kv1024; specs/h200-rings.yaml: b4 kv8192
# on a 2-stage ring, b32 kv1024 on a 3-stage ring, b256 kv1024 with
# lazy_rescale and early_refill. Three copies of the build (2caccb4's
# kernels: 00cb60a), two of each variant, one process, 300 calls a file.
set -uo pipefail
R=perf/run-2026-12-01-twentysecond
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=4x8192,32x1024,32x8192,256x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 400 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound11.json" $V/base_a.py $V/base_b.py $V/base_c.py \
  $V/la_a.py $V/la_b.py $V/rings_a.py $V/rings_b.py 2>&1 | tee "$OUT/bound11.log" | tail -4
