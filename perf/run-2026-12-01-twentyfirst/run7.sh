#!/usr/bin/env bash
# Seventh device call (twenty-first session): b32 kv1024 without late_fill
# on a 3-stage ring (specs/h200-b32k1-nolf-s3.yaml), two copies against
# three of the same without it (run 6's nolf), one process, 400 calls a file; gen check.
set -uo pipefail
R=perf/run-2026-12-01-twentyfirst
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=32x1024 BOUND_STATES=dirty BOUND_RUNS=400 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound7.json" $V/s3_a.py $V/s3_b.py \
  $V/nolf_a.py $V/nolf_b.py $V/nolf_c.py 2>&1 | tee "$OUT/bound7.log" | tail -1
timeout 100 python3 -m generator.cli check --spec $R/specs/h200-b32k1-nolf-s3.yaml --shapes b32_kv1024 --json "$OUT/check7.json" > "$OUT/check7.log" 2>&1; echo "check rc $?"
