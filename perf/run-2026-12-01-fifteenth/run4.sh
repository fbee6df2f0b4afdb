#!/usr/bin/env bash
# Fourth device call (fifteenth session): fold 'merge' (specs/h200-own.yaml, second version: each warpgroup stores its partial inside its own partition, before the join; on
# the three consumers-2 shapes each warpgroup stores its own partial and
# arrives at the row's barrier itself; no hand-over through shared memory)
# against two copies of the build of specs/h200.yaml at the same template:
# gen check of the three shapes, one process (dirty L2, 300 calls a file,
# shuffled), gen timeline of b32 kv8192 and b64 kv1024.
set -uo pipefail
D=perf/run-2026-12-01-fifteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
S="--shapes b32_kv8192 --shapes b64_kv1024 --shapes b64_kv8192"
timeout 240 python3 -m generator.cli check --spec $D/specs/h200-own.yaml $S --json "$OUT/check4.json" > "$OUT/check4.log" 2>&1
grep -E "^│ [a-z]|passed|failed|FAIL" "$OUT/check4.log" | tail -20
BOUND_SHUFFLE=1 BOUND_SHAPES=32x8192,64x1024,64x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound4.json" \
  $D/v/base_a.py $D/v/own.py $D/v/base_b.py 2>&1 | tail -4 | tee "$OUT/bound4.log"
timeout 100 python3 -m generator.cli timeline --spec $D/specs/h200-own.yaml --shapes b32_kv8192 --shapes b64_kv1024 > "$OUT/timeline4.log" 2>&1
