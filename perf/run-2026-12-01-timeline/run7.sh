#!/usr/bin/env bash
# Seventh device call: the committed build with partials fp16 (283c150): gen check,
# gen bench against the last recorded run, and the build before it (v/before.py:
# build/h200/submission.py at 23a1ee4) against it in one process (bound.py).
set -uo pipefail
D=perf/run-2026-12-01-timeline
GEN_COMMIT=283c150 BENCH_COMPARE=perf/h200-2026-11-30-session7-final.json scripts/device_run.sh check bench
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound7.json" $D/v/before.py build/h200/submission.py 2>&1 | tee "$OUT/bound7.log"
