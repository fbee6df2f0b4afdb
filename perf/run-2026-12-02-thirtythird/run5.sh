#!/usr/bin/env bash
# Fifth device call (thirty-third session): b4 kv1024's split count and
# dv_split again, now that its partials are e4m3 (cheaper partials may move
# the balance toward more splits): specs/h200-b4k1-{s32d1,s32d2,s8d2}.yaml
# against two copies of the build of ec5b98c (16 splits, dv_split 2).
# gen check of each variant's b4 kv1024, then two one-process rounds
# (400 calls a file, shuffled, L2 dirty).
set -uo pipefail
R=perf/run-2026-12-02-thirtythird
V=$R/v
F="$V/base_a.py $V/base_b.py $V/s32d1.py $V/s32d2.py $V/s8d2.py"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run5.txt"
for v in s32d1 s32d2 s8d2; do
  timeout 120 python3 -m generator.cli check --spec $R/specs/h200-b4k1-$v.yaml --shapes b4_kv1024 \
    --json "$OUT/check5-$v.json" > "$OUT/check5-$v.log" 2>&1
  echo "check $v rc $?"
done
for k in a b; do
BOUND_SHUFFLE=1 BOUND_SHAPES=4x1024 BOUND_STATES=dirty BOUND_RUNS=400 timeout 150 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound5$k.json" $F 2>&1 | tee "$OUT/bound5$k.log" | tail -2
done
