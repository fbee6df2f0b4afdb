#!/usr/bin/env bash
# Fourth device call (twenty-ninth session): pacing's premise with no memory
# traffic (mktime.py: tile i no sooner than the first scores + i x BUDGET;
# tA/tB/tC: b256 kv1024 2.20/2.25/2.30 us, b256 kv8192 2.03/2.08/2.13 us a
# tile). Outputs, then one process (300 calls a file, shuffled, L2 dirty).
set -uo pipefail
R=perf/run-2026-12-02-twentyninth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run4.txt"
CMP_SHAPES=256x1024,256x8192 timeout 200 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp4.json" \
  $V/base_a.py $V/tB.py > "$OUT/cmp4.log" 2>&1
grep -o '"vs_first": \[[^]]*\]' "$OUT/cmp4.log" | sort | uniq -c
BOUND_SHUFFLE=1 BOUND_SHAPES=256x1024,256x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 330 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound4.json" $V/base_a.py $V/base_b.py $V/tA.py $V/tB.py $V/tC.py \
  2>&1 | tee "$OUT/bound4.log" | tail -4
