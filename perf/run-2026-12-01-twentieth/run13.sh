#!/usr/bin/env bash
# Thirteenth device call (twentieth session): the record run of b3cb5c5 (gen
# check, gen bench with both baselines against run 8's
# record, leaderboard mode); perf/h200-2026-12-01-session20-retune*.json (renamed from
# -final once run 16 recorded 379261b).
GEN_COMMIT=b3cb5c5 BENCH_COMPARE=perf/h200-2026-12-01-session20-compact.json OUT=$OUT \
  scripts/device_run.sh "check bench bench-lb" > "$OUT/run13.log" 2>&1
grep -E 'geomean|passed|failed' "$OUT/run13.log" | tail -5
