#!/usr/bin/env bash
# Fifth device call (twenty-first session): the template's 16-byte part
# stores (bstore, now in the template: build/h200 of this commit) on b4
# kv1024 again, and b32 kv1024 without late_fill
# (specs/h200-b32k1-nolf.yaml), against three copies of the previous build
# (0d67cc5), one process, 400 calls a file; outputs compared; gen check of
# both shapes.
set -uo pipefail
R=perf/run-2026-12-01-twentyfirst
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv > "$OUT/gpu-run5.txt" 2>&1
CMP_SHAPES=4x1024,32x1024 timeout 100 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp5.json" $V/base_a.py \
  $V/bstore_a.py $V/nolf_a.py > "$OUT/cmp5.log" 2>&1; cat "$OUT/cmp5.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=4x1024,32x1024 BOUND_STATES=dirty BOUND_RUNS=400 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound5.json" $V/base_a.py $V/base_b.py $V/base_c.py \
  $V/bstore_a.py $V/bstore_b.py $V/nolf_a.py $V/nolf_b.py 2>&1 | tee "$OUT/bound5.log" | tail -2
timeout 100 python3 -m generator.cli check --spec specs/h200.yaml --shapes b4_kv1024 --json "$OUT/check5-b4k1.json" \
  > "$OUT/check5-b4k1.log" 2>&1; echo "check b4k1 rc $?"
timeout 100 python3 -m generator.cli check --spec $R/specs/h200-b32k1-nolf.yaml --shapes b32_kv1024 \
  --json "$OUT/check5-nolf.json" > "$OUT/check5-nolf.log" 2>&1; echo "check nolf rc $?"
