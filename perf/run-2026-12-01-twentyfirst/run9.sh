#!/usr/bin/env bash
# Ninth device call (twenty-first session): 3-stage rings without late_fill
# on b32 kv1024 and b4 kv8192 (specs/h200-s3.yaml) a third and second time, three copies
# against three of run 6's nolf (b4 kv8192 as committed), one process, 400
# calls a file.
set -uo pipefail
R=perf/run-2026-12-01-twentyfirst
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=32x1024,4x8192 BOUND_STATES=dirty BOUND_RUNS=400 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound9.json" $V/s3_a.py $V/s3_b.py $V/s3_c.py \
  $V/nolf_a.py $V/nolf_b.py $V/nolf_c.py 2>&1 | tee "$OUT/bound9.log" | tail -2
