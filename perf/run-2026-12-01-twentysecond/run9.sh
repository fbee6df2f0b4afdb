#!/usr/bin/env bash
# Ninth device call (twenty-second session): mkvar.py qk256 (the score
# chains as 256 + 256 + 64 dims, one wgmma call each) against three copies
# of the build (00cb60a), one process, all eight shapes, 300 calls a file;
# outputs compared with the build's and the reference.
set -uo pipefail
R=perf/run-2026-12-01-twentysecond
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
CMP_SHAPES=4x1024,4x8192,32x1024,32x8192,64x1024,256x1024,256x8192 timeout 150 python3 perf/run-2026-12-01-fifteenth/cmp.py \
  "$OUT/cmp9.json" $V/base_a.py $V/qk256_a.py > "$OUT/cmp9.log" 2>&1; grep -o '"qk256_a": {[^}]*}' "$OUT/cmp9.log"
BOUND_SHUFFLE=1 BOUND_STATES=dirty BOUND_RUNS=300 timeout 400 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound9.json" $V/base_a.py $V/base_b.py $V/base_c.py \
  $V/qk256_a.py $V/qk256_b.py 2>&1 | tee "$OUT/bound9.log" | tail -8
