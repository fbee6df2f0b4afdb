#!/usr/bin/env bash
# Eighth device call (twenty-second session): the record of 00cb60a
# (v_row_pairs on four shapes), gen check (strict and leaderboard rules), gen
# bench with both baselines against the twenty-first session's record (run
# 10, the same machine state class), leaderboard mode.
GEN_COMMIT=00cb60a BENCH_COMPARE=perf/h200-2026-12-01-session21-final.json OUT=$OUT \
  scripts/device_run.sh "check bench bench-lb" > "$OUT/run8.log" 2>&1
tail -40 "$OUT/run8.log"
