#!/usr/bin/env bash
# Fourteenth device call (twenty-second session): mkvar.py pvpipe (the PV
# groups pipelined: group j + 1 issued before group j is waited for) against
# two copies of the build (6e1c935), one process, six shapes, 300 calls a
# file; outputs compared with the build's.
set -uo pipefail
R=perf/run-2026-12-01-twentysecond
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
CMP_SHAPES=4x8192,32x1024,256x1024 timeout 100 python3 perf/run-2026-12-01-fifteenth/cmp.py \
  "$OUT/cmp14.json" $V/base_a.py $V/pvpipe_a.py > "$OUT/cmp14.log" 2>&1; grep -o '"pvpipe_a": {[^}]*}' "$OUT/cmp14.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=4x8192,32x1024,64x1024,32x8192,256x1024,256x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound14.json" $V/base_a.py $V/base_b.py \
  $V/pvpipe_a.py $V/pvpipe_b.py 2>&1 | tee "$OUT/bound14.log" | tail -6
