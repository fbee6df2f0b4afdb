#!/usr/bin/env bash
# Run 3: why b32 kv1024 and b64 kv1024 are ~1 us slower in the new build:
# one-field variants on the new template, and the old template with the new
# configuration (oldcfg), against the old build; host cost of the new build.
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt"
timeout 200 python3 .lab/warm.py .lab/v3 12 > "$OUT/warm.log" 2>&1; echo "warm rc $?"
timeout 100 python3 .lab/hostcost.py .lab/v3/new.py "$OUT/host" 2>&1 | tail -8
AB_SHAPES=b32_kv1024,b64_kv1024 DET_CALLS=5 timeout 240 python3 .lab/ab.py "$OUT/ab3.json" .lab/v3 3 300 2>&1 | tee "$OUT/ab3.log" | grep -v "^WARN"
