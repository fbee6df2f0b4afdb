#!/usr/bin/env bash
# Second device call (twenty-first session): mma_row_sums on every gluon
# shape (specs/h200-rsum.yaml) against three copies of the build (379261b's
# kernels), one process, all eight shapes, 300 calls a file; outputs
# compared; gen check of the variant spec on every shape.
set -uo pipefail
R=perf/run-2026-12-01-twentyfirst
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv > "$OUT/gpu-run2.txt" 2>&1
timeout 150 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp2.json" $V/base_a.py $V/rsum_a.py \
  > "$OUT/cmp2.log" 2>&1; grep -o '"rsum_a": {[^}]*}' "$OUT/cmp2.log"
BOUND_SHUFFLE=1 BOUND_STATES=dirty BOUND_RUNS=300 timeout 250 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound2.json" $V/base_a.py $V/base_b.py $V/base_c.py \
  $V/rsum_a.py $V/rsum_b.py 2>&1 | tee "$OUT/bound2.log" | tail -8
timeout 150 python3 -m generator.cli check --spec $R/specs/h200-rsum.yaml --json "$OUT/check2.json" > "$OUT/check2.log" 2>&1
echo "check rc $?"; tail -4 "$OUT/check2.log"
