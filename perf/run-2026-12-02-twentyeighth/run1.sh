#!/usr/bin/env bash
# First device call (twenty-eighth session): fold merge on b32 kv8192 and b64
# kv8192 (specs/h200-fm.yaml: each consumer warpgroup stores its own partial
# and arrives at the row's barrier itself; the merge folds 2 x splits
# partials) against the build (base_*): outputs, gen check of the two
# shapes, one process (300 calls a file, shuffled, L2 dirty), then gen
# timeline of the variant.
set -uo pipefail
R=perf/run-2026-12-02-twentyeighth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run1.txt"
CMP_SHAPES=32x8192,64x8192 timeout 120 python3 perf/run-2026-12-01-fifteenth/cmp.py \
  "$OUT/cmp1.json" $V/base_a.py $V/fm_a.py > "$OUT/cmp1.log" 2>&1
tail -4 "$OUT/cmp1.log"
timeout 200 python3 -m generator.cli check --spec $R/specs/h200-fm.yaml --shapes b32_kv8192 --shapes b64_kv8192 \
  --json "$OUT/check1.json" > "$OUT/check1.log" 2>&1
tail -5 "$OUT/check1.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=32x8192,64x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 300 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound1.json" $V/base_a.py $V/base_b.py $V/fm_a.py $V/fm_b.py \
  2>&1 | tee "$OUT/bound1.log" | tail -6
timeout 200 python3 -m generator.cli timeline --spec $R/specs/h200-fm.yaml --shapes b32_kv8192 --shapes b64_kv8192 \
  --runs 40 --json "$OUT/timeline1.json" > "$OUT/timeline1.log" 2>&1
tail -50 "$OUT/timeline1.log"
