#!/usr/bin/env bash
# Seventh device call (twenty-fifth session): the record of 5013e31
# (pv_format fp8 on the seven V-from-registers entries, lazy_rescale on the
# kv8192 two-warpgroup and b256 shapes): gen check, gen bench with both
# baselines (compared with the twenty-fourth session's record), leaderboard
# mode.
set -uo pipefail
GEN_COMMIT=${GEN_COMMIT:?} BENCH_COMPARE=perf/h200-2026-12-02-session24-final.json OUT=$OUT \
  timeout 480 scripts/device_run.sh "check bench bench-lb" > "$OUT/run7.log" 2>&1
grep -E "passed|failed|geomean|b[0-9]+_kv" "$OUT/run7.log" | grep -v "│ *│" | tail -40
