#!/usr/bin/env bash
# Run 1: one-field flips of today's committed entries (mkvar.py builds), one
# process, shuffled; distinct outputs per runner; host cost of the build.
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt"
python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)' >> "$OUT/gpu.txt"
cat "$OUT/gpu.txt"
date +%s > "$OUT/t"
timeout 300 python3 .lab/warm.py .lab/v1 12 > "$OUT/warm.log" 2>&1; echo "warm rc $?"; grep -c warm "$OUT/warm.log"
date +%s >> "$OUT/t"
timeout 120 python3 .lab/hostcost.py .lab/v1/base_a.py "$OUT/host" 2>&1 | tail -9
date +%s >> "$OUT/t"
DET_CALLS=40 timeout 300 python3 .lab/ab.py "$OUT/ab1.json" .lab/v1 2 300 2>&1 | tee "$OUT/ab1.log" | grep -v "^WARN"
date +%s >> "$OUT/t"
