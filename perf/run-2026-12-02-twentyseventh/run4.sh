#!/usr/bin/env bash
# Fourth device call (twenty-seventh session): b32 kv8192 and b64 kv8192 on
# b256 kv8192's design (one consumer warpgroup, two programs an SM, 85 KB of
# shared memory) at twice the splits (8 and 4: 256 programs each), two
# variants (specs/h200-c1a.yaml, h200-c1b.yaml), against the build of 2861bea
# (cur_*): gen check of the two shapes, then one process, 300 calls a file,
# shuffled, L2 dirty.
set -uo pipefail
R=perf/run-2026-12-02-twentyseventh
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run4.txt"
for v in c1a c1b; do
  timeout 100 python3 -m generator.cli check --spec $R/specs/h200-$v.yaml --shapes b32_kv8192 --shapes b64_kv8192 \
    --json "$OUT/check4-$v.json" > "$OUT/check4-$v.log" 2>&1
  echo "$v pass $(grep -cE "│ pass" "$OUT/check4-$v.log")"
done
BOUND_SHUFFLE=1 BOUND_SHAPES=32x8192,64x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 300 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound4.json" $V/cur_a.py $V/cur_b.py $V/c1a.py $V/c1b.py \
  2>&1 | tee "$OUT/bound4.log" | tail -3
