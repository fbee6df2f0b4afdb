#!/usr/bin/env bash
# Sixteenth device call (twentieth session): the record run of 379261b (gen
# check, gen bench with both baselines against run 13's record, leaderboard
# mode); perf/h200-2026-12-01-session20-final*.json.
GEN_COMMIT=379261b BENCH_COMPARE=perf/h200-2026-12-01-session20-retune.json OUT=$OUT \
  scripts/device_run.sh "check bench bench-lb" > "$OUT/run16.log" 2>&1
grep -E 'geomean|passed|failed' "$OUT/run16.log" | tail -5
