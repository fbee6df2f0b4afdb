#!/usr/bin/env bash
# Seventh device call (seventeenth session): producer_warp (a one-warp
# partition refills the ring; the consumer frees each slot with an mbarrier
# arrival) on the one-warpgroup shapes b4 kv8192, b32 kv1024, b64 kv1024 and
# b256 kv1024 (specs/h200-prod.yaml) against 43d2254's spec built by the same
# template; one process, two copies each, dirty L2, 300 calls, shuffled;
# then gen check of the variant on those shapes.
set -uo pipefail
R=perf/run-2026-12-01-seventeenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=4x8192,32x1024,64x1024,256x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 250 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound7.json" \
  $R/v/base_a.py $R/v/prod_a.py $R/v/base_b.py $R/v/prod_b.py 2>&1 | grep -E "^b[0-9]|Error|error" | tee "$OUT/bound7.log"
timeout 200 python3 -m generator.cli check --spec $R/specs/h200-prod.yaml --shapes b4_kv8192 --shapes b32_kv1024 \
  --shapes b64_kv1024 --shapes b256_kv1024 --json "$OUT/check7.json" > "$OUT/check7.log" 2>&1
echo "check rc $?"; grep -E "^│ [a-z]" "$OUT/check7.log" | cut -c1-100
