#!/usr/bin/env bash
# Ninth device call (twenty-fifth session): with pv_format fp8 the PV product
# is two groups of 8 wgmmas a tile; the second group issued behind the first
# without waiting for it (one wait a tile; nw_*) against two copies of the
# build of 5013e31 (base_*). One process, 300 calls a file, shuffled, L2 dirty.
set -uo pipefail
R=perf/run-2026-12-02-twentyfifth
V=$R/v
S=4x8192,32x1024,32x8192,64x1024,64x8192,256x1024,256x8192
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=$S BOUND_STATES=dirty BOUND_RUNS=300 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound9.json" $V/base_a.py $V/base_b.py $V/nw_a.py $V/nw_b.py \
  2>&1 | tee "$OUT/bound9.log" | tail -7
