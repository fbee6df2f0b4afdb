#!/usr/bin/env bash
# Twelfth device call (twenty-second session): run 11's rings variant again
# on b256 kv1024 (lazy_rescale and early_refill behind v_row_pairs), three
# copies each, 400 calls a file.
set -uo pipefail
R=perf/run-2026-12-01-twentysecond
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=256x1024 BOUND_STATES=dirty BOUND_RUNS=400 timeout 300 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound12.json" $V/base_a.py $V/base_b.py $V/base_c.py \
  $V/rings_a.py $V/rings_b.py $V/rings_c.py 2>&1 | tee "$OUT/bound12.log" | tail -2
