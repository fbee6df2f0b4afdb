#!/usr/bin/env bash
# Second device call (twentieth session): floor.py, each shape's skeleton of
# the committed design (stream; stream + the barrier merge on partials of
# ones) beside the committed build, one process.
set -uo pipefail
R=perf/run-2026-12-01-twentieth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv > "$OUT/gpu-run2.txt" 2>&1
FLOOR_RUNS=300 timeout 400 python3 $R/floor.py "$OUT/floor2.json" build/h200/submission.py 2>&1 | tee "$OUT/floor2.log" | tail -30
