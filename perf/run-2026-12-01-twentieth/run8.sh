#!/usr/bin/env bash
# Eighth device call (twentieth session): the record run of 2dfa152 (gen
# check, gen bench with both baselines against the eighteenth session's
# record, leaderboard mode); perf/h200-2026-12-01-session20-compact*.json (renamed from -final once run 13 recorded b3cb5c5).
GEN_COMMIT=2dfa152 BENCH_COMPARE=perf/h200-2026-12-01-session18-final.json OUT=$OUT \
  scripts/device_run.sh "check bench bench-lb" > "$OUT/run8.log" 2>&1
grep -E 'geomean|passed|failed' "$OUT/run8.log" | tail -5
