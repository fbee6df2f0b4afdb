#!/usr/bin/env bash
# Tenth device call (sixteenth session): the record of 9a526cb (gen check of
# specs/h200.yaml, gen bench with both baselines against 966ebf4's run,
# leaderboard mode). (Run 9 was bound.py alone on run 8's files, in a new
# order, 400 calls.)
set -uo pipefail
GEN_COMMIT=9a526cb BENCH_COMPARE=perf/run-2026-12-01-sixteenth/records/bench-run6.json OUT=$OUT \
  timeout 330 scripts/device_run.sh "check bench bench-lb" > "$OUT/device_run.log" 2>&1
grep -E "geomean|^b[0-9]+_kv[0-9]+: " "$OUT/device_run.log" | cut -c1-200 | tail -20
grep -c "│ pass" "$OUT/check.log"
