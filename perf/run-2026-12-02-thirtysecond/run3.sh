#!/usr/bin/env bash
# Third device call (thirty-second session): the one-warpgroup split kernels
# and b256 kv1024's on more or fewer rows (smbound.py on the build of ae271fb).
set -uo pipefail
R=perf/run-2026-12-02-thirtysecond
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run3.txt"
SM_PLAN=small timeout 400 python3 $R/smbound.py build/h200/submission.py "$OUT/smbound3.json" 2>&1 | tee "$OUT/smbound3.log" | tail -5
