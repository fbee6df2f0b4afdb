#!/usr/bin/env bash
# Ninth device call (twentieth session): mkvar.py's hshare (each merge
# program a contiguous 1 / SHARES of its row's output) against three copies
# of the build (2dfa152), one process, the six split shapes; outputs compared.
set -uo pipefail
R=perf/run-2026-12-01-twentieth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv > "$OUT/gpu-run9.txt" 2>&1
SPLIT=4x1024,4x8192,32x1024,32x8192,64x1024,64x8192
CMP_SHAPES=$SPLIT timeout 150 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp9.json" $V/base_a.py $V/hshare_a.py \
  > "$OUT/cmp9.log" 2>&1; grep -o '"hshare_a": {[^}]*}' "$OUT/cmp9.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=$SPLIT BOUND_STATES=dirty BOUND_RUNS=300 timeout 300 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound9.json" $V/base_a.py $V/base_b.py $V/base_c.py \
  $V/hshare_a.py $V/hshare_b.py 2>&1 | tee "$OUT/bound9.log" | tail -8
