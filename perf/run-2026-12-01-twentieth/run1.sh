#!/usr/bin/env bash
# First device call (twentieth session): epi.py, every program's stamps with
# the epilogue's steps stamped, on the four one-warpgroup split shapes.
set -uo pipefail
R=perf/run-2026-12-01-twentieth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv > "$OUT/gpu-run1.txt" 2>&1
RAW_RUNS=30 timeout 400 python3 $R/epi.py "$OUT" specs/h200.yaml b4_kv1024 b4_kv8192 b32_kv1024 b64_kv1024 2>&1 \
  | tee "$OUT/epi1.log" | tail -80
