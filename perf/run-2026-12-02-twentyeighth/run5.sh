#!/usr/bin/env bash
# Fifth device call (twenty-eighth session): the b256 shapes with late_fill
# (specs/h200-late.yaml) and with late_fill and q_fill (specs/h200-qfill.yaml)
# against the build (base_*): run 4's timeline has b256 kv1024's Q land at
# 6.5 us and its first scores at 7.25, behind every program's two-tile first
# burst. Outputs, then one process (300 calls a file, shuffled, L2 dirty).
set -uo pipefail
R=perf/run-2026-12-02-twentyeighth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run5.txt"
CMP_SHAPES=256x1024,256x8192 timeout 120 python3 perf/run-2026-12-01-fifteenth/cmp.py \
  "$OUT/cmp5.json" $V/base_a.py $V/late.py $V/qfill.py > "$OUT/cmp5.log" 2>&1
grep -o '"vs_first": \[[^]]*\]' "$OUT/cmp5.log" | sort | uniq -c
BOUND_SHUFFLE=1 BOUND_SHAPES=256x1024,256x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 300 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound5.json" $V/base_a.py $V/base_b.py $V/late.py $V/qfill.py \
  2>&1 | tee "$OUT/bound5.log" | tail -3
