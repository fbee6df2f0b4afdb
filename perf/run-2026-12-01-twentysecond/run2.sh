#!/usr/bin/env bash
# Second device call (twenty-second session): cvt_rate.py, the issue rate of
# the V conversion's instruction (cvt.rn.f16x2.e4m3x2) against integer,
# fp32 -> fp16 and HFMA2 loops.
set -uo pipefail
R=perf/run-2026-12-01-twentysecond
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem --format=csv > "$OUT/gpu-run2.txt" 2>&1
timeout 200 python3 $R/cvt_rate.py "$OUT/cvt2.json" 2>&1 | tee "$OUT/cvt2.log"
nvidia-smi --query-gpu=clocks.sm --format=csv >> "$OUT/gpu-run2.txt" 2>&1
