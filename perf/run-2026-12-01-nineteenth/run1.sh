#!/usr/bin/env bash
# First device call (nineteenth session): (1) warm.py on the committed build,
# every shape: what a call pays for its code and small buffers starting cold
# after the clear; (2) rawtl.py: every program's stamps with its SM, on b256
# kv1024 (the one-pass shape 0.2-0.3 us short of 70% of HBM), b64 kv1024 and
# b32 kv8192.
set -uo pipefail
R=perf/run-2026-12-01-nineteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv > "$OUT/gpu-run1.txt" 2>&1
WARM_RUNS=200 timeout 300 python3 $R/warm.py "$OUT/warm1.json" build/h200/submission.py 2>&1 \
  | grep -E "^b[0-9]|Error|error|Traceback" | tee "$OUT/warm1.log"
RAW_RUNS=30 timeout 200 python3 $R/rawtl.py "$OUT" specs/h200.yaml b256_kv1024 b64_kv1024 b32_kv8192 2>&1 | tail -5
