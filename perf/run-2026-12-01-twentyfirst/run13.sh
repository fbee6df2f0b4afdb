#!/usr/bin/env bash
# Thirteenth device call (twenty-first session): mkvar.py lsum_last (the row
# sums reduced under the last tile's first PV wgmmas only) against three
# copies of the build (6a557ea), one process, all eight shapes, 300 calls a
# file; outputs compared. (Run 12: gen timeline of 6a83d5c, the same kernels.)
set -uo pipefail
R=perf/run-2026-12-01-twentyfirst
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
CMP_SHAPES=4x1024,4x8192,32x1024,64x1024,256x1024 timeout 100 python3 perf/run-2026-12-01-fifteenth/cmp.py \
  "$OUT/cmp13.json" $V/base_a.py $V/lsumlast_a.py > "$OUT/cmp13.log" 2>&1; grep -o '"lsumlast_a": {[^}]*}' "$OUT/cmp13.log"
BOUND_SHUFFLE=1 BOUND_STATES=dirty BOUND_RUNS=300 timeout 250 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound13.json" $V/base_a.py $V/base_b.py $V/base_c.py \
  $V/lsumlast_a.py $V/lsumlast_b.py 2>&1 | tee "$OUT/bound13.log" | tail -8
