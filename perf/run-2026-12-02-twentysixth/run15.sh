#!/usr/bin/env bash
# Fifteenth device call (twenty-sixth session): the TMA descriptors
# prefetched at each program's start (prefetch.tensormap on every
# descriptor parameter, inserted by the PTX hook: tmpf_*, a hand edit of
# the build of 75dce0c) against two copies of that build (cur_*). One
# process, 200 calls a file, shuffled, L2 dirty, the small shapes.
set -uo pipefail
R=perf/run-2026-12-02-twentysixth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=4x1024,4x8192,32x1024,64x1024 BOUND_STATES=dirty BOUND_RUNS=200 timeout 100 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound15.json" $V/cur_a.py $V/cur_b.py $V/tmpf_a.py $V/tmpf_b.py \
  2>&1 | tee "$OUT/bound15.log" | tail -4
