#!/usr/bin/env bash
# Eighth device call (fourteenth session): the two shapes 1 us short of 70% of HBM, with options not
# measured since l2_policy. h200-x.yaml: b256 kv1024 + late_fill + stagger, b32 kv8192 + prefetch_v;
# h200-y.yaml: b256 kv1024 + prefetch_v, b32 kv8192 without speculate. One process, dirty L2, 300 calls,
# shuffled, against two copies of build/h200 at 45b2014; gen check of both on the two shapes.
set -uo pipefail
D=perf/run-2026-12-01-fourteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=32x8192,256x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 300 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound8.json" \
  $D/v/base_a.py $D/v/x.py $D/v/y.py $D/v/base_b.py 2>&1 | tail -3 | tee "$OUT/bound8.log"
for v in x y; do
  timeout 120 python3 -m generator.cli check --spec $D/specs/h200-$v.yaml --shapes b32_kv8192 --shapes b256_kv1024 \
    2>&1 | grep -E "^│ [a-z]" | tee -a "$OUT/check8.log"
done
