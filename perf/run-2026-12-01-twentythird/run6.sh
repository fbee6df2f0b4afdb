#!/usr/bin/env bash
# Sixth device call (twenty-third session): the first burst's requests
# spaced (mkstag.py: stag, the second tile once Q is in; qfill, every later
# stage once Q is in; both on late_fill, specs/h200-lf.yaml) against two
# copies of the build (09b4ace) and late_fill alone, b4 kv8192, b32 kv1024
# and b64 kv1024, one process, 300 calls a file.
set -uo pipefail
R=perf/run-2026-12-01-twentythird
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run6.txt"
CMP_SHAPES=4x8192,32x1024,64x1024 timeout 100 python3 perf/run-2026-12-01-fifteenth/cmp.py \
  "$OUT/cmp6.json" $V/base_a.py $V/lf_a.py $V/stag_a.py $V/qfill_a.py > "$OUT/cmp6.log" 2>&1
grep -o '"vs_first": \[[^]]*\]' "$OUT/cmp6.log" | sort | uniq -c
BOUND_SHUFFLE=1 BOUND_SHAPES=4x8192,32x1024,64x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 150 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound6.json" $V/base_a.py $V/base_b.py $V/lf_a.py \
  $V/stag_a.py $V/stag_b.py $V/qfill_a.py 2>&1 | tee "$OUT/bound6.log" | tail -6
