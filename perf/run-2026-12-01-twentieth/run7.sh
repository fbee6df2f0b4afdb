#!/usr/bin/env bash
# Seventh device call (twentieth session): b4 kv1024 with fp16 partials, and
# with fp16 partials and compact_lse (specs/h200-b4k1-f16*.yaml), against
# three copies of the build (07e34bd), one process, 400 calls a file (run 6 again, to confirm f16c); no gen
# check.
set -uo pipefail
R=perf/run-2026-12-01-twentieth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv > "$OUT/gpu-run7.txt" 2>&1
BOUND_SHUFFLE=1 BOUND_SHAPES=4x1024 BOUND_STATES=dirty BOUND_RUNS=400 timeout 300 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound7.json" $V/base_a.py $V/base_b.py $V/base_c.py \
  $V/f16_a.py $V/f16_b.py $V/f16c_a.py $V/f16c_b.py 2>&1 | tee "$OUT/bound7.log" | tail -3
