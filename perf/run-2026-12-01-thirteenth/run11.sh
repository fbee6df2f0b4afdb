#!/usr/bin/env bash
# Eleventh device call (thirteenth session): run-time tile claims where the timeline (run 9) shows a
# program's warpgroups ending apart or a 4-tile chain: specs/h200-claim.yaml (b4 kv8192 as two consumers
# with claim_tiles at 16 splits; b64 kv1024 with claim_tiles) against specs/h200.yaml at bdd51e1.
# gen check of the variant's two shapes, then bound.py, two copies each, 300 calls, dirty L2, shuffled.
set -uo pipefail
D=perf/run-2026-12-01-thirteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 150 python3 -m generator.cli check --spec $D/specs/h200-claim.yaml --shapes b4_kv8192 --shapes b64_kv1024 \
  --json "$OUT/check11.json" 2>&1 | tail -14 | tee "$OUT/check11.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=4x8192,64x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound11.json" \
  $D/v/base_a.py $D/v/claim_a.py $D/v/base_b.py $D/v/claim_b.py 2>&1 | tee "$OUT/bound11.log"
