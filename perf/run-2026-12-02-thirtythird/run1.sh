#!/usr/bin/env bash
# First device call (thirty-third session): int8 partials with a step per
# (split, row, head) (specs/h200-int8.yaml: int8 on the six split shapes)
# against the committed build (fp8 partials on four split shapes, fp16 on
# b32 / b64 kv1024). gen check of the int8 spec's split shapes, outputs
# against the float32 reference (cmp.py), then two one-process rounds
# (400 calls a file, shuffled, L2 dirty) against two copies of the build.
set -uo pipefail
R=perf/run-2026-12-02-thirtythird
V=$R/v
S=4x1024,4x8192,32x1024,32x8192,64x1024,64x8192
F="$V/base_a.py $V/base_b.py $V/int8.py"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run1.txt"
timeout 240 python3 -m generator.cli check --spec $R/specs/h200-int8.yaml --shapes b4_kv1024 --shapes b4_kv8192 \
  --shapes b32_kv1024 --shapes b32_kv8192 --shapes b64_kv1024 --shapes b64_kv8192 \
  --json "$OUT/check1.json" > "$OUT/check1.log" 2>&1
echo "check rc $?"; grep -iE "fail|passed|error" "$OUT/check1.log" | tail -8 | cut -c1-300
CMP_SHAPES=$S timeout 150 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp1.json" $F > "$OUT/cmp1.log" 2>&1
tail -7 "$OUT/cmp1.log" | cut -c1-700
for k in a b; do
BOUND_SHUFFLE=1 BOUND_SHAPES=$S BOUND_STATES=dirty BOUND_RUNS=400 timeout 150 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound1$k.json" $F 2>&1 | tee "$OUT/bound1$k.log" | tail -6
done
