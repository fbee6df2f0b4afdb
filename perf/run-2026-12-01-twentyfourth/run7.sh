#!/usr/bin/env bash
# Seventh device call (twenty-fourth session): run 4 found v_row_swap 0.3 us
# slower on b64 kv8192 and 2.8 us on b256 kv8192; again, two copies each
# (specs/h200-swapall.yaml) against two copies of the build (def74f5),
# one process, 300 calls a file, shuffled, L2 dirty.
set -uo pipefail
R=perf/run-2026-12-01-twentyfourth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=64x8192,256x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound7.json" $V/new_a.py $V/new_b.py $V/swapall_a.py $V/swapall_b.py \
  2>&1 | tee "$OUT/bound7.log" | tail -3
