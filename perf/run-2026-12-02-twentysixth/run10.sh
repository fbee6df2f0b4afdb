#!/usr/bin/env bash
# Tenth device call (twenty-sixth session): b32 kv1024's ring depth behind
# the fp8 PV product (3 and 4 stages with late_fill and q_fill, one program
# an SM as before) and v_early on it, against two copies of the build of
# 91d16a8. One process, 400 calls a file, shuffled, L2 dirty.
set -uo pipefail
R=perf/run-2026-12-02-twentysixth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=32x1024 BOUND_STATES=dirty BOUND_RUNS=400 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound10.json" $V/cur_a.py $V/cur_b.py $V/b32s3.py $V/b32s4.py \
  $V/b32ve.py 2>&1 | tee "$OUT/bound10.log" | tail -2
