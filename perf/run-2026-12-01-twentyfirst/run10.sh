#!/usr/bin/env bash
# Tenth device call (twenty-first session): the record of 6a557ea, gen check
# (strict and leaderboard rules), gen bench with both baselines against the
# twentieth session's run 13, leaderboard mode.
GEN_COMMIT=6a557ea BENCH_COMPARE=perf/h200-2026-12-01-session20-retune.json OUT=$OUT \
  scripts/device_run.sh "check bench bench-lb" > "$OUT/run10.log" 2>&1
