#!/usr/bin/env bash
# Tenth device call (seventeenth session): 19e2718 (early_refill on b32
# kv1024 and b64 kv1024) against 646d6d3's build on those two shapes, one
# process, two copies each, dirty L2, 300 calls, shuffled; then the record of
# 19e2718 (gen check, gen bench with both baselines against the sixteenth
# session's record, leaderboard mode).
set -uo pipefail
R=perf/run-2026-12-01-seventeenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=32x1024,64x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 120 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound10.json" \
  $R/v/base_a.py $R/v/new_a.py $R/v/base_b.py $R/v/new_b.py 2>&1 | grep -E "^b[0-9]|Error|error" | tee "$OUT/bound10.log"
GEN_COMMIT=19e2718 BENCH_COMPARE=perf/h200-2026-12-01-session16-final.json OUT=$OUT scripts/device_run.sh "check bench bench-lb" > $OUT/record.log 2>&1
echo rc=$?
grep -E "geomean|: .* us \(" $OUT/bench.log | cut -c1-160; grep -cE "^│ [a-z].*pass" $OUT/check.log; grep geomean $OUT/bench_lb.log
