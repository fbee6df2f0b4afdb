#!/usr/bin/env bash
# Sixth device call (thirteenth session): the l2_policy field as built. (1) gen check of specs/h200.yaml
# with l2_policy per shape (evict_first: b32 kv8192, b64 kv1024, b256 kv1024; evict_last: b4 kv8192,
# b32 kv1024, b64 kv8192, b256 kv8192; none: b4 kv1024). (2) bound.py: that build (l2_a, l2_b) against
# build/h200 at 4e5d3d9 (base_a, base_b), every shape, dirty L2, shuffled, 300 calls a file. v/ not kept.
set -uo pipefail
D=perf/run-2026-12-01-thirteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 200 python3 -m generator.cli check --spec specs/h200.yaml --json "$OUT/check6.json" 2>&1 | tail -20 | tee "$OUT/check6.log"
BOUND_SHUFFLE=1 BOUND_STATES=dirty BOUND_RUNS=300 timeout 330 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound6.json" \
  $D/v/base_a.py $D/v/l2_a.py $D/v/base_b.py $D/v/l2_b.py 2>&1 | tee "$OUT/bound6.log"
