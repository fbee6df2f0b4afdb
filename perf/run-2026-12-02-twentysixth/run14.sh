#!/usr/bin/env bash
# Fourteenth device call (twenty-sixth session): the record of 75dce0c (b4 kv1024
# on V from registers with dv_split 2 and evict_first; b64 kv1024 with
# v_early, late_fill
# and q_fill): gen check, gen bench with both baselines against the
# twenty-fifth session's record, leaderboard mode.
set -uo pipefail
GEN_COMMIT=75dce0c BENCH_COMPARE=perf/h200-2026-12-02-session25-final.json scripts/device_run.sh "check bench bench-lb" \
  > "$OUT/record.log" 2>&1
grep -E "geomean|->" "$OUT/record.log" | tail -12
grep -cE "│ pass" "$OUT/check.log"
