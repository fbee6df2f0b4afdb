#!/usr/bin/env bash
# Sixth device call (twenty-second session): mkvar.py rowpairs (V's bytes paired by rows before the conversion;
# one permute per 8 elements fewer) against three
# copies of the build (6a557ea), one process, all eight shapes, 300 calls a
# file; outputs compared with the build's.
set -uo pipefail
R=perf/run-2026-12-01-twentysecond
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
CMP_SHAPES=4x1024,4x8192,32x1024,64x1024,256x1024 timeout 150 python3 perf/run-2026-12-01-fifteenth/cmp.py \
  "$OUT/cmp6.json" $V/base_a.py $V/rowpairs_a.py > "$OUT/cmp6.log" 2>&1; grep -o '"rowpairs_a": {[^}]*}' "$OUT/cmp6.log"
BOUND_SHUFFLE=1 BOUND_STATES=dirty BOUND_RUNS=300 timeout 400 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound6.json" $V/base_a.py $V/base_b.py $V/base_c.py \
  $V/rowpairs_a.py $V/rowpairs_b.py 2>&1 | tee "$OUT/bound6.log" | tail -8
