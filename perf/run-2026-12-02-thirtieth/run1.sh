#!/usr/bin/env bash
# First device call (thirtieth session): the ring barriers' invalidation off
# the epilogue's path (mkinval.py: noinval = none at the tile loop's end,
# lateinval = at the kernel's end). Outputs, then one process (300 calls a
# file, shuffled, L2 dirty, every shape) against two copies of the build.
set -uo pipefail
R=perf/run-2026-12-02-thirtieth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run1.txt"
timeout 240 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp1.json" $V/base_a.py $V/noinval.py $V/lateinval.py \
  > "$OUT/cmp1.log" 2>&1
grep -o '"vs_first": \[[^]]*\]' "$OUT/cmp1.log" | sort | uniq -c; tail -2 "$OUT/cmp1.log"
BOUND_SHUFFLE=1 BOUND_STATES=dirty BOUND_RUNS=300 timeout 330 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound1.json" $V/base_a.py $V/base_b.py $V/noinval.py $V/lateinval.py \
  2>&1 | tee "$OUT/bound1.log" | tail -12
