#!/usr/bin/env bash
# Fifth device call (seventeenth session): the record of 43d2254 (lazy_rescale
# on b32 kv1024 and b64 kv1024): gen check, gen bench with both baselines
# against the sixteenth session's record, leaderboard mode; then gen timeline
# (its files did not come back: too many under $OUT).
GEN_COMMIT=43d2254 BENCH_COMPARE=perf/h200-2026-12-01-session16-final.json OUT=$OUT scripts/device_run.sh "check bench bench-lb" > $OUT/record.log 2>&1
echo rc=$?
export PYTHONPATH=/tmp/site:$PWD
timeout 150 python3 -m generator.cli timeline --spec specs/h200.yaml --runs 30 --json $OUT/timeline.json > $OUT/timeline.log 2>&1
