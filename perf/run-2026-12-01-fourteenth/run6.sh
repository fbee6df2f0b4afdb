#!/usr/bin/env bash
# Sixth device call (fourteenth session): run 5 found a cooperative launch of a kernel with TMA
# descriptors among its arguments 0.74 us slower than a plain one (no cost without descriptors). The six
# barrier-merge runners of build/h200 at 45b2014 launched plainly (plain.py: launch_cooperative_grid
# False, nothing else changed) against two copies of the build, one process, dirty L2, 300 calls,
# shuffled; launch_floor.py again.
set -uo pipefail
D=perf/run-2026-12-01-fourteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=4x1024,4x8192,32x1024,32x8192,64x1024,64x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 420 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound6.json" \
  $D/v/base_a.py $D/v/plain.py $D/v/base_b.py 2>&1 | tail -7 | tee "$OUT/bound6.log"
timeout 100 python3 $D/launch_floor.py "$OUT/floor6.json" 2>&1 | tail -8 | tee "$OUT/floor6.log"
