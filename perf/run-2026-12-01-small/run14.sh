#!/usr/bin/env bash
# Fourteenth device call: dv_split 2 on b4 kv1024 as a spec field (the working tree after
# f1bda49): the old build against the new, order-balanced over six files on b4 kv1024, then
# the record run (gen check, gen bench with both baselines, leaderboard mode); the record
# runs only if gen check passes.
set -uo pipefail
D=perf/run-2026-12-01-small
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHAPES=4x1024 BOUND_STATES=dirty BOUND_RUNS=300 python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound14.json" \
  $D/v/old_a.py $D/v/new_a.py $D/v/new_b.py $D/v/old_b.py $D/v/old_c.py $D/v/new_c.py 2>&1 | tee "$OUT/bound14.log"
python3 -m generator.cli check --spec specs/h200.yaml --json "$OUT/check.json" > "$OUT/check.log" 2>&1 || { echo "check failed"; tail -30 "$OUT/check.log"; exit 1; }
grep -c "│ pass" "$OUT/check.log"
scripts/device_run.sh "bench bench-lb" > /dev/null 2>&1
grep "geomean\|->" "$OUT/bench.log" | tail -10; grep geomean "$OUT/bench_lb.log"
grep "^│ b" "$OUT/bench.log" | awk -F'│' '{print $2,$5,$11,$16,$17}'; grep "^│ b" "$OUT/bench_lb.log" | awk -F'│' '{print $2,$5,$14}'
