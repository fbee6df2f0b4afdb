#!/usr/bin/env bash
# Second device call (thirty-third session): where int8 partials' time goes.
# int8.py: run 1's build (F2I / I2F conversions); int8fast.py: the
# conversions as a float add and byte moves (1.5 * 2^23); timing only (wrong
# outputs): int8fast_noamax.py without the heads' largest-magnitude reduction,
# int8fast_nosteps.py with a merge that reads no steps. gen check of the
# int8fast spec's split shapes, outputs against the float32 reference,
# then two one-process rounds (400 calls a file, shuffled, L2 dirty).
set -uo pipefail
R=perf/run-2026-12-02-thirtythird
V=$R/v
S=4x1024,4x8192,32x1024,32x8192,64x1024,64x8192
F="$V/base_a.py $V/base_b.py $V/int8.py $V/int8fast.py $V/int8fast_noamax.py $V/int8fast_nosteps.py"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run2.txt"
timeout 240 python3 -m generator.cli check --spec $R/specs/h200-int8.yaml --shapes b4_kv1024 --shapes b4_kv8192 \
  --shapes b32_kv1024 --shapes b32_kv8192 --shapes b64_kv1024 --shapes b64_kv8192 \
  --json "$OUT/check2.json" > "$OUT/check2.log" 2>&1
echo "check rc $?"
CMP_SHAPES=$S timeout 150 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp2.json" $V/base_a.py $V/int8.py \
  $V/int8fast.py > "$OUT/cmp2.log" 2>&1
tail -7 "$OUT/cmp2.log" | cut -c1-400
for k in a b; do
BOUND_SHUFFLE=1 BOUND_SHAPES=$S BOUND_STATES=dirty BOUND_RUNS=400 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound2$k.json" $F 2>&1 | tee "$OUT/bound2$k.log" | tail -6
done
