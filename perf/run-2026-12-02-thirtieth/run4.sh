#!/usr/bin/env bash
# Fourth device call (thirtieth session): b4 kv1024's two dims halves merged
# behind barriers of their own (mkhalf.py: halfbar; halfbar_b a copy).
# Outputs on every split shape, then one process (400 calls a file,
# shuffled, L2 dirty, b4 kv1024 and b4 kv8192) against two copies of the build.
set -uo pipefail
R=perf/run-2026-12-02-thirtieth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run4.txt"
CMP_SHAPES=4x1024,4x8192,32x1024,64x1024 timeout 200 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp4.json" \
  $V/base_a.py $V/halfbar.py > "$OUT/cmp4.log" 2>&1
grep -o '"vs_first": \[[^]]*\]' "$OUT/cmp4.log" | sort | uniq -c; tail -1 "$OUT/cmp4.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=4x1024,4x8192 BOUND_STATES=dirty BOUND_RUNS=400 timeout 300 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound4.json" $V/base_a.py $V/base_b.py $V/halfbar.py $V/halfbar_b.py \
  2>&1 | tee "$OUT/bound4.log" | tail -3
