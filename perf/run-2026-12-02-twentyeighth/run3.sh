#!/usr/bin/env bash
# Third device call (twenty-eighth session): the record of the committed
# kernels (86ccc4e: 54cf31b's kernels): gen check, gen bench with both
# baselines against the twenty-seventh session's faster-state record,
# leaderboard mode.
set -uo pipefail
GEN_COMMIT=86ccc4e BENCH_COMPARE=perf/h200-2026-12-02-session27-record.json scripts/device_run.sh "check bench bench-lb" \
  > "$OUT/record.log" 2>&1
grep -E "geomean|->" "$OUT/record.log" | tail -12
grep -cE "│ pass" "$OUT/check.log"
