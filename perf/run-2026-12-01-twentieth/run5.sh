#!/usr/bin/env bash
# Fifth device call (twentieth session): lsec again, cpad (each row's counter
# on its own 128-byte line) and both, against three copies of the build, one
# process, the six split shapes; outputs compared.
set -uo pipefail
R=perf/run-2026-12-01-twentieth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv > "$OUT/gpu-run5.txt" 2>&1
SPLIT=4x1024,4x8192,32x1024,32x8192,64x1024,64x8192
CMP_SHAPES=$SPLIT timeout 150 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp5.json" $V/base_a.py $V/cpad_a.py \
  $V/lsec_cpad_a.py > "$OUT/cmp5.log" 2>&1; grep -o '"[a-z_]*_a": {[^}]*}' "$OUT/cmp5.log" | grep -v base_a
BOUND_SHUFFLE=1 BOUND_SHAPES=$SPLIT BOUND_STATES=dirty BOUND_RUNS=300 timeout 420 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound5.json" $V/base_a.py $V/base_b.py $V/base_c.py \
  $V/lsec_a.py $V/lsec_b.py $V/cpad_a.py $V/cpad_b.py $V/lsec_cpad_a.py $V/lsec_cpad_b.py 2>&1 \
  | tee "$OUT/bound5.log" | tail -8
