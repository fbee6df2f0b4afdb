#!/usr/bin/env bash
# First device call (thirty-second session): claim_tiles' producers claiming
# a ring's next tile before its slot frees (mkclaim.py on the build of
# ae271fb: ahead, near). Outputs, then two one-process rounds (400 calls a
# file, shuffled, L2 dirty) against two copies of the build.
set -uo pipefail
R=perf/run-2026-12-02-thirtysecond
V=$R/v
S=32x8192,64x8192
F="$V/base_a.py $V/base_b.py $V/ahead.py $V/near.py"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run1.txt"
CMP_SHAPES=$S timeout 150 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp1.json" $F > "$OUT/cmp1.log" 2>&1
tail -3 "$OUT/cmp1.log" | cut -c1-800
for k in a b; do
BOUND_SHUFFLE=1 BOUND_SHAPES=$S BOUND_STATES=dirty BOUND_RUNS=400 timeout 170 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound1$k.json" $F 2>&1 | tee "$OUT/bound1$k.log" | tail -4
done
