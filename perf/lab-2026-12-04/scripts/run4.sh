#!/usr/bin/env bash
# Run 4: partials laid out split-major (split, row, head, dim: the old build's
# order) against row-major in the new kernels.
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt"
timeout 200 python3 .lab/warm.py .lab/v4 12 > "$OUT/warm.log" 2>&1; echo "warm rc $?"
AB_SHAPES=b4_kv1024,b4_kv8192,b32_kv1024,b32_kv8192,b64_kv1024,b64_kv8192 DET_CALLS=3 timeout 300 python3 .lab/ab.py "$OUT/ab4.json" .lab/v4 2 300 2>&1 | tee "$OUT/ab4.log" | grep -v "^WARN"
