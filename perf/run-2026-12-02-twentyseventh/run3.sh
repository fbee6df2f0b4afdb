#!/usr/bin/env bash
# Third device call (twenty-seventh session): p-bar.patch again (pb_*), three
# copies each against the build of 2861bea (cur_*), 400 calls a file,
# shuffled, L2 dirty: the three kernels whose false barrier it removes (b4
# kv8192, b32 kv1024, b256 kv1024) and two that only gain its barrier once
# a program (b4 kv1024, b64 kv1024).
set -uo pipefail
R=perf/run-2026-12-02-twentyseventh
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run3.txt"
BOUND_SHUFFLE=1 BOUND_SHAPES=4x1024,4x8192,32x1024,64x1024,256x1024 BOUND_STATES=dirty BOUND_RUNS=400 timeout 400 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound3.json" $V/cur_a.py $V/cur_b.py $V/cur_c.py $V/pb_a.py \
  $V/pb_b.py $V/pb_c.py 2>&1 | tee "$OUT/bound3.log" | tail -6
