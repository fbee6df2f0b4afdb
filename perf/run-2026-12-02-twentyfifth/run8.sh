#!/usr/bin/env bash
# Eighth device call (twenty-fifth session): with pv_format fp8, V from
# registers on b4 kv1024 (one tile a program: splits 16 on 64 programs, or
# splits 32 on 128 with half-filled tiles; specs/h200-b4k1-regs16.yaml,
# -regs32.yaml) instead of V through shared memory in halves, and b64 kv1024
# on two consumer warpgroups (specs/h200-b64k1-c2.yaml), against two copies of
# the build of 5013e31 (new_*): gen check of the b4 kv1024 variants, then
# one process, 300 calls a file, shuffled, L2 dirty.
set -uo pipefail
R=perf/run-2026-12-02-twentyfifth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
for v in b4k1-regs16 b4k1-regs32; do
  timeout 60 python3 -m generator.cli check --spec $R/specs/h200-$v.yaml --shapes b4_kv1024 > "$OUT/check8-$v.log" 2>&1
  grep -E "^│ (b4_kv1024|contract)" "$OUT/check8-$v.log" | cut -c1-120
done
BOUND_SHUFFLE=1 BOUND_SHAPES=4x1024,64x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound8.json" $V/new_a.py $V/new_b.py $V/b4k1-regs16.py \
  $V/b4k1-regs32.py $V/b64k1-c2.py 2>&1 | tee "$OUT/bound8.log" | tail -3
