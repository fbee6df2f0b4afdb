#!/usr/bin/env bash
# Eighth device call (twenty-third session): b32 kv1024 with q_fill on a
# 4-stage ring (specs/h200-b32k1-s4.yaml) against two copies of the build
# (57a747d), one process, 300 calls a file; then the record of 57a747d:
# gen check, gen bench with both baselines (compared with the twenty-second
# session's record) and leaderboard mode.
set -uo pipefail
R=perf/run-2026-12-01-twentythird
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=32x1024,4x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 100 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound8.json" $V/base_a.py $V/base_b.py \
  $V/s4_a.py $V/s4_b.py 2>&1 | tee "$OUT/bound8.log" | tail -3
GEN_COMMIT=57a747d BENCH_COMPARE=perf/h200-2026-12-01-session22-final.json OUT=$OUT \
  timeout 420 scripts/device_run.sh "check bench bench-lb" > "$OUT/run8.log" 2>&1
grep -E "passed|failed|geomean|b[0-9]+_kv" "$OUT/run8.log" | tail -40
