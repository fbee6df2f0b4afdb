#!/usr/bin/env bash
# Third device call (thirteenth session): which priority makes run 2's difference? The TMA loads with an
# L2 cache hint of evict_normal, evict_last or evict_unchanged (fraction 1.0) against none and evict_first,
# the five large shapes, one process, dirty L2, shuffled. v/ (not kept): base_a = build/h200 at 4e5d3d9;
# ef_a, evict_normal, evict_last, evict_unchanged = make_ef.py of it with that priority.
set -uo pipefail
D=perf/run-2026-12-01-thirteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=32x8192,64x1024,64x8192,256x1024,256x8192 BOUND_STATES=dirty BOUND_RUNS=150 timeout 400 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound3.json" \
  $D/v/base_a.py $D/v/ef_a.py $D/v/evict_normal.py $D/v/evict_last.py $D/v/evict_unchanged.py 2>&1 | tee "$OUT/bound3.log"
