#!/usr/bin/env bash
# Second device call (thirty-first session): the claim_tiles shapes with a
# row's splits two apart in launch order (mkremap.py on the build of
# d1a0f74). Outputs, then two one-process rounds (400 calls a file,
# shuffled, L2 dirty) against two copies of the build.
set -uo pipefail
R=perf/run-2026-12-02-thirtyfirst
V=$R/v
S=32x8192,64x8192
F="$V/base_a.py $V/base_b.py $V/remap.py"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run2.txt"
CMP_SHAPES=$S timeout 150 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp2.json" $F > "$OUT/cmp2.log" 2>&1
tail -2 "$OUT/cmp2.log" | cut -c1-600
for k in a b; do
BOUND_SHUFFLE=1 BOUND_SHAPES=$S BOUND_STATES=dirty BOUND_RUNS=400 timeout 150 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound2$k.json" $F 2>&1 | tee "$OUT/bound2$k.log" | tail -2
done
