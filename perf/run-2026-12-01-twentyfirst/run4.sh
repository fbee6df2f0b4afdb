#!/usr/bin/env bash
# Fourth device call (twenty-first session): mkvar.py bstore (the V-through-
# shared-memory path's output parts moved to a blocked layout for 16-byte
# stores) on b4 kv1024, alone and with v_parts 4 and 8
# (specs/h200-b4k1-vp*.yaml), against three copies of the build, one
# process, 400 calls a file; outputs compared.
set -uo pipefail
R=perf/run-2026-12-01-twentyfirst
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv > "$OUT/gpu-run4.txt" 2>&1
CMP_SHAPES=4x1024 timeout 100 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp4.json" $V/base_a.py \
  $V/bstore_a.py $V/vp4bs_a.py $V/vp8bs_a.py > "$OUT/cmp4.log" 2>&1; cat "$OUT/cmp4.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=4x1024 BOUND_STATES=dirty BOUND_RUNS=400 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound4.json" $V/base_a.py $V/base_b.py $V/base_c.py \
  $V/bstore_a.py $V/bstore_b.py $V/vp4bs_a.py $V/vp4bs_b.py $V/vp8bs_a.py $V/vp8bs_b.py 2>&1 \
  | tee "$OUT/bound4.log" | tail -2
