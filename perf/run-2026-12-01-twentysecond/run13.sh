#!/usr/bin/env bash
# Thirteenth device call (twenty-second session): the record of 6e1c935
# (v_row_pairs on four shapes; b256 kv1024 with lazy_rescale and early_refill), gen check (strict and leaderboard rules), gen
# bench with both baselines against the twenty-second session's first record (run 8,
# faster state), leaderboard mode.
GEN_COMMIT=6e1c935 BENCH_COMPARE=perf/h200-2026-12-01-session22-final.json OUT=$OUT \
  scripts/device_run.sh "check bench bench-lb" > "$OUT/run13.log" 2>&1
tail -40 "$OUT/run13.log"
