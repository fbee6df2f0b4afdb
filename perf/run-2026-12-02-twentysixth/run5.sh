#!/usr/bin/env bash
# Fifth device call (twenty-sixth session): the record of b256560 (b4 kv1024
# on V from registers with dv_split 2: gen check, gen bench with both
# baselines, leaderboard mode), after run 1's e1 again (the first PV group's
# V rows loaded before the softmax, v-early1.patch on b256560) on the shapes
# where run 1 put it ahead: one process, two copies each, 300 calls a file,
# shuffled, L2 dirty.
set -uo pipefail
R=perf/run-2026-12-02-twentysixth
V=$R/v
S=4x1024,32x1024,32x8192,64x1024
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=$S BOUND_STATES=dirty BOUND_RUNS=300 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound5.json" $V/new_a.py $V/new_b.py $V/e1n_a.py $V/e1n_b.py \
  2>&1 | tee "$OUT/bound5.log" | tail -5
GEN_COMMIT=b256560 BENCH_COMPARE=perf/h200-2026-12-02-session25-final.json scripts/device_run.sh "check bench bench-lb" \
  > "$OUT/record.log" 2>&1
grep -E "geomean|passed|failed|cases" "$OUT/record.log" | tail -12
