#!/usr/bin/env bash
# Second device call (thirteenth session): the evict-first policy's fraction (createpolicy.fractional:
# that share of the TMA loads evict-first, the rest unchanged) on the five large shapes, one process,
# dirty L2, shuffled. v/ (not kept): base_a = build/h200 at 4e5d3d9; ef_a, ef75, ef5, ef25 = make_ef.py
# of it with fraction 1.0, 0.75, 0.5, 0.25.
set -uo pipefail
D=perf/run-2026-12-01-thirteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=32x8192,64x1024,64x8192,256x1024,256x8192 BOUND_STATES=dirty BOUND_RUNS=150 timeout 400 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound2.json" \
  $D/v/base_a.py $D/v/ef_a.py $D/v/ef75.py $D/v/ef5.py $D/v/ef25.py 2>&1 | tee "$OUT/bound2.log"
