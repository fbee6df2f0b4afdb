#!/usr/bin/env bash
# Thirteenth device call (sixteenth session): the L2 policy of the two shapes
# whose kernels changed kind this session (the policies were chosen for
# their old kernels): h200-l2a.yaml (b32 kv1024 none, b64 kv1024
# evict_last), h200-l2b.yaml (b32 kv1024 evict_first, b64 kv1024 none),
# against the committed build (evict_last, evict_first): outputs against the
# build (cmp.py), one process (two copies each, dirty L2, 300 calls, shuffled).
set -uo pipefail
D=perf/run-2026-12-01-sixteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
CMP_SHAPES=32x1024,64x1024 timeout 60 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp13.json" \
  $D/v/base_a.py $D/v/l2a_a.py $D/v/l2b_a.py 2>&1 | tail -3 | cut -c1-400
BOUND_SHUFFLE=1 BOUND_SHAPES=32x1024,64x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 120 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound13.json" \
  $D/v/base_a.py $D/v/l2a_a.py $D/v/l2b_a.py $D/v/base_b.py $D/v/l2a_b.py $D/v/l2b_b.py 2>&1 | tail -3 | tee "$OUT/bound13.log"
