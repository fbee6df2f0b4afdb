#!/usr/bin/env bash
# Eleventh device call (fifteenth session): fold 'halves' (specs/h200-halves.yaml:
# on the three consumers-2 shapes each warpgroup hands the other half of its
# output parts, folds the other's half of its own and stores it; the second
# warpgroup arrives at the merge barrier itself) against two copies of
# build/h200 at b6462fb: gen check of the three shapes, then one process
# (dirty L2, 300 calls a file, shuffled, two copies of each).
set -uo pipefail
D=perf/run-2026-12-01-fifteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
S="--shapes b32_kv8192 --shapes b64_kv1024 --shapes b64_kv8192"
timeout 150 python3 -m generator.cli check --spec $D/specs/h200-halves.yaml $S > "$OUT/check11.log" 2>&1
grep -E "^│ [a-z]" "$OUT/check11.log" | cut -c1-150
BOUND_SHUFFLE=1 BOUND_SHAPES=32x8192,64x1024,64x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 150 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound11.json" \
  $D/v/base_a.py $D/v/halves.py $D/v/base_b.py $D/v/halves_2.py 2>&1 | tail -3 | tee "$OUT/bound11.log"
