#!/usr/bin/env bash
# Third device call (twentieth session): mkvar.py's vol (the barrier merge's
# loads volatile, the partials' first) against three copies of the build, one
# process, the six split shapes; outputs compared; epi.py's stamps of b4
# kv8192 and b4 kv1024 with and without it.
set -uo pipefail
R=perf/run-2026-12-01-twentieth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv > "$OUT/gpu-run3.txt" 2>&1
SPLIT=4x1024,4x8192,32x1024,32x8192,64x1024,64x8192
CMP_SHAPES=$SPLIT timeout 150 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp3.json" $V/base_a.py $V/vol_a.py \
  2>&1 | tee "$OUT/cmp3.log" | tail -8
BOUND_SHUFFLE=1 BOUND_SHAPES=$SPLIT BOUND_STATES=dirty BOUND_RUNS=300 timeout 300 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound3.json" $V/base_a.py $V/base_b.py $V/base_c.py \
  $V/vol_a.py $V/vol_b.py 2>&1 | tee "$OUT/bound3.log" | tail -8
RAW_RUNS=30 timeout 100 python3 $R/epi.py "$OUT" specs/h200.yaml b4_kv8192 b4_kv1024 2>&1 | tee "$OUT/epi3.log" | grep -E "^raw|lse|partials in|barrier passed|merge stores"
EPI_VARIANT=vol RAW_RUNS=30 timeout 100 python3 $R/epi.py "$OUT" specs/h200.yaml b4_kv8192 b4_kv1024 2>&1 | tee "$OUT/epi3-vol.log" | grep -E "^raw|lse|partials in|barrier passed|merge stores"
