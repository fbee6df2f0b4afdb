#!/usr/bin/env bash
# Ninth device call (twenty-seventh session): merge_poll load on all six
# split shapes with a 100 ns nanosleep before each poll (poll-sleep.patch,
# specs/h200-ns.yaml; ns_*), against the build of 54cf31b (cur_*: b4 kv8192
# on load polls without the sleep, the others atomic): one process, 200
# calls a file, shuffled, L2 dirty.
set -uo pipefail
R=perf/run-2026-12-02-twentyseventh
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=4x1024,4x8192,32x1024,32x8192,64x1024,64x8192 BOUND_STATES=dirty BOUND_RUNS=200 timeout 100 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound9.json" $V/cur_a.py $V/cur_b.py $V/ns_a.py $V/ns_b.py \
  2>&1 | tee "$OUT/bound9.log" | tail -6
