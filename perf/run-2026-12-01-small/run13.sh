#!/usr/bin/env bash
# Thirteenth device call: run 12 again, order-balanced over six files (base, dv, dv, base,
# base, dv), 300 calls each, b4 kv1024 only.
set -uo pipefail
D=perf/run-2026-12-01-small
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHAPES=4x1024 BOUND_STATES=dirty BOUND_RUNS=300 python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound13.json" \
  $D/v/base_a.py $D/v/dv_a.py $D/v/dv_b.py $D/v/base_b.py $D/v/base_c.py $D/v/dv_c.py 2>&1 | tee "$OUT/bound13.log"
