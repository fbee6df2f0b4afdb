#!/usr/bin/env bash
# Eighth device call (twenty-seventh session): the record of 54cf31b (b4
# kv8192 with merge_poll load): gen check, gen bench with both baselines
# against this session's run 2, leaderboard mode.
set -uo pipefail
GEN_COMMIT=54cf31b BENCH_COMPARE=perf/h200-2026-12-02-session27-record.json scripts/device_run.sh "check bench bench-lb" \
  > "$OUT/record.log" 2>&1
grep -E "geomean|->" "$OUT/record.log" | tail -12
grep -cE "│ pass" "$OUT/check.log"
