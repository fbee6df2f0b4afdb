#!/usr/bin/env bash
# Eleventh device call (twenty-sixth session): b4 kv1024's switches timed
# again on the register path (dv_split 2, pv_format fp8): compact_lse off,
# fp32 partials, v_early, l2_policy evict_first; against two copies of the
# build of 91d16a8. One process, 400 calls a file, shuffled, L2 dirty.
set -uo pipefail
R=perf/run-2026-12-02-twentysixth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=4x1024 BOUND_STATES=dirty BOUND_RUNS=400 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound11.json" $V/cur_a.py $V/cur_b.py $V/b4nocl.py $V/b4p32.py \
  $V/b4ve.py $V/b4ef.py 2>&1 | tee "$OUT/bound11.log" | tail -2
