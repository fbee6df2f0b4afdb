#!/usr/bin/env bash
# Tenth device call (fifteenth session): b64 kv1024 with late_fill, a third
# time (two copies of build/h200 at d0591af against two of the build with it,
# 400 calls, shuffled), then the record run of the committed build.
set -uo pipefail
D=perf/run-2026-12-01-fifteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=64x1024 BOUND_STATES=dirty BOUND_RUNS=400 timeout 120 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound10.json" \
  $D/v/base_a.py $D/v/late_a.py $D/v/base_b.py $D/v/late_b.py 2>&1 | tail -1 | tee "$OUT/bound10.log"
GEN_COMMIT=$GEN_COMMIT BENCH_COMPARE=perf/h200-2026-12-01-session13-final.json timeout 420 \
  scripts/device_run.sh "check bench bench-lb" > "$OUT/record10.log" 2>&1
grep -E "^geomean|->|passed|failed" "$OUT/record10.log" | tail -20
grep -c "│ pass" "$OUT/check.log"
