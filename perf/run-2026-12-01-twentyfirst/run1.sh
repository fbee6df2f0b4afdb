#!/usr/bin/env bash
# First device call (twenty-first session): mkvar.py's nosum (a bound: the
# row sums never reduced, outputs wrong) and sahead (the next tile's score
# wgmmas under the last PV group) against three copies of the build
# (379261b), one process, all eight shapes, 300 calls a file; sahead's
# outputs compared with the build's.
set -uo pipefail
R=perf/run-2026-12-01-twentyfirst
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv > "$OUT/gpu-run1.txt" 2>&1
timeout 200 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp1.json" $V/base_a.py $V/sahead_a.py \
  > "$OUT/cmp1.log" 2>&1; grep -o '"sahead_a": {[^}]*}' "$OUT/cmp1.log"
BOUND_SHUFFLE=1 BOUND_STATES=dirty BOUND_RUNS=300 timeout 380 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound1.json" $V/base_a.py $V/base_b.py $V/base_c.py \
  $V/nosum_a.py $V/nosum_b.py $V/sahead_a.py $V/sahead_b.py 2>&1 | tee "$OUT/bound1.log" | tail -9
