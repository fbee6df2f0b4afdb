#!/usr/bin/env bash
# Second device call (twenty-seventh session), on the faster machine state
# (b256 kv8192 at 282 us in run 1): the record of 2861bea (the kernels of
# 75dce0c): gen check, gen bench with both baselines against the
# twenty-sixth session's record, leaderboard mode.
set -uo pipefail
GEN_COMMIT=2861bea BENCH_COMPARE=perf/h200-2026-12-02-session26-final.json scripts/device_run.sh "check bench bench-lb" \
  > "$OUT/record.log" 2>&1
grep -E "geomean|->" "$OUT/record.log" | tail -12
grep -cE "│ pass" "$OUT/check.log"
