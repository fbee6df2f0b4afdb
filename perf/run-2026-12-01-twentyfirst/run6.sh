#!/usr/bin/env bash
# Sixth device call (twenty-first session): b32 kv1024 without late_fill
# (specs/h200-b32k1-nolf.yaml) again, three copies each against three of
# the build (0c79d80), one process, 400 calls a file.
set -uo pipefail
R=perf/run-2026-12-01-twentyfirst
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=32x1024 BOUND_STATES=dirty BOUND_RUNS=400 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound6.json" $V/base_a.py $V/base_b.py $V/base_c.py \
  $V/nolf_a.py $V/nolf_b.py $V/nolf_c.py 2>&1 | tee "$OUT/bound6.log" | tail -1
