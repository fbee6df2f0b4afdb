#!/usr/bin/env bash
# Seventh device call (twenty-third session): the spec field q_fill (run 6's
# stag, now in the template) on five shapes (specs/h200-qf.yaml), and with
# 4-stage rings on three (h200-qf4.yaml), against two copies of the build
# (09b4ace): outputs, one-process timing, 300 calls a file.
set -uo pipefail
R=perf/run-2026-12-01-twentythird
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run7.txt"
CMP_SHAPES=4x8192,32x1024,64x1024,256x1024,256x8192 timeout 100 python3 perf/run-2026-12-01-fifteenth/cmp.py \
  "$OUT/cmp7.json" $V/base_a.py $V/qf_a.py $V/qf4_a.py > "$OUT/cmp7.log" 2>&1
grep -o '"vs_first": \[[^]]*\]' "$OUT/cmp7.log" | sort | uniq -c
BOUND_SHUFFLE=1 BOUND_SHAPES=4x8192,32x1024,64x1024,256x1024,256x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound7.json" $V/base_a.py $V/base_b.py $V/qf_a.py \
  $V/qf_b.py $V/qf4_a.py 2>&1 | tee "$OUT/bound7.log" | tail -6
