#!/usr/bin/env bash
# Fifth device call (thirteenth session): the L2 cache hints of run 4 that won somewhere, on all eight
# shapes, and two mixes. v/ (make_ef.py of build/h200 at 4e5d3d9, not kept): ef 23=evict_first,
# el 23=evict_last, mix 3=evict_first,2=evict_last, el50f 23=evict_last.L2::evict_first@0.5;
# base = the build itself. One process, dirty L2, shuffled, 150 calls a file.
set -uo pipefail
D=perf/run-2026-12-01-thirteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_STATES=dirty BOUND_RUNS=150 timeout 450 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound5.json" \
  $D/v/base.py $D/v/ef.py $D/v/el.py $D/v/mix.py $D/v/el50f.py 2>&1 | tee "$OUT/bound5.log"
