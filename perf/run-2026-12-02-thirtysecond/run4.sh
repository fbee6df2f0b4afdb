#!/usr/bin/env bash
# Fourth device call (thirty-second session): the split shapes' partials in
# e4m3 (mkpart8.py on the build of ae271fb). Outputs against the float32
# reference, then two one-process rounds (400 calls a file, shuffled, L2
# dirty) against two copies of the build.
set -uo pipefail
R=perf/run-2026-12-02-thirtysecond
V=$R/v
S=4x1024,4x8192,32x1024,32x8192,64x1024,64x8192
F="$V/base_a.py $V/base_b.py $V/part8.py"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run4.txt"
CMP_SHAPES=$S timeout 200 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp4.json" $F > "$OUT/cmp4.log" 2>&1
tail -7 "$OUT/cmp4.log" | cut -c1-700
for k in a b; do
BOUND_SHUFFLE=1 BOUND_SHAPES=$S BOUND_STATES=dirty BOUND_RUNS=400 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound4$k.json" $F 2>&1 | tee "$OUT/bound4$k.log" | tail -6
done
