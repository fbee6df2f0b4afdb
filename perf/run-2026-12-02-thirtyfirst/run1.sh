#!/usr/bin/env bash
# First device call (thirty-first session): one switch each on b32 kv8192,
# b64 kv8192, b256 kv1024 and b256 kv8192, on today's kernels
# (specs/h200-sw-*.yaml, made by mksw.py: each file one switch on the shapes
# it names). Outputs, then two one-process rounds (300 calls a file,
# shuffled, L2 dirty) against two copies of the build of d1a0f74.
set -uo pipefail
R=perf/run-2026-12-02-thirtyfirst
V=$R/v
S=32x8192,64x8192,256x1024,256x8192
F="$V/base_a.py $V/base_b.py $V/claim.py $V/l2last.py $V/l2none.py $V/look.py $V/lse.py $V/nolazy.py $V/poll.py $V/refill.py $V/stag.py"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run1.txt"
date +%s > "$OUT/t0"
CMP_SHAPES=$S timeout 200 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp1.json" $F > "$OUT/cmp1.log" 2>&1
grep -o '"vs_first": \[[^]]*\]' "$OUT/cmp1.log" | sort | uniq -c
date +%s >> "$OUT/t0"
for k in a b; do
BOUND_SHUFFLE=1 BOUND_SHAPES=$S BOUND_STATES=dirty BOUND_RUNS=300 timeout 170 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound1$k.json" $F 2>&1 | tee "$OUT/bound1$k.log" | tail -4
date +%s >> "$OUT/t0"
done
