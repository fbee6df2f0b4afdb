#!/usr/bin/env bash
# Fourth device call (thirty-first session): every program's stamps and SM
# (raw31.py, 30 calls a shape) for b32 kv8192 and b64 kv8192 as built and
# with remap (a row's splits two apart in launch order): where item 3's
# loss goes.
set -uo pipefail
R=perf/run-2026-12-02-thirtyfirst
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run4.txt"
for m in base remap; do
  mkdir -p "$OUT/$m"
  RAW_REMAP=$([ $m = base ] || echo $m) timeout 200 python3 $R/raw31.py "$OUT/$m" specs/h200.yaml b32_kv8192 b64_kv8192 2>&1 | tail -3
  gzip "$OUT/$m"/*.pt
done
