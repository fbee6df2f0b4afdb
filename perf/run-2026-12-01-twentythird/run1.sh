#!/usr/bin/env bash
# First device call (twenty-third session): merge flags (specs/h200-flags.yaml)
# on b4 kv1024, b4 kv8192, b32 kv1024 and b64 kv1024 against three copies of
# the build (09b4ace): outputs, one-process timing (300 calls a file), gen
# check of the variant spec on those shapes, timelines of both.
# (As run, its check and timeline steps called a shell function under
# timeout and did not run; fixed here as in run 2, which ran them.)
set -uo pipefail
R=perf/run-2026-12-01-twentythird
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run1.txt"
CMP_SHAPES=4x1024,4x8192,32x1024,64x1024 timeout 100 python3 perf/run-2026-12-01-fifteenth/cmp.py \
  "$OUT/cmp1.json" $V/base_a.py $V/flags_a.py > "$OUT/cmp1.log" 2>&1; tail -c 1500 "$OUT/cmp1.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=4x1024,4x8192,32x1024,64x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 150 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound1.json" $V/base_a.py $V/base_b.py $V/base_c.py \
  $V/flags_a.py $V/flags_b.py 2>&1 | tee "$OUT/bound1.log" | tail -8
S="--shapes b4_kv1024 --shapes b4_kv8192 --shapes b32_kv1024 --shapes b64_kv1024"
timeout 150 python3 -m generator.cli check --spec $R/specs/h200-flags.yaml $S --json "$OUT/check1.json" > "$OUT/check1.log" 2>&1; tail -5 "$OUT/check1.log"
timeout 100 python3 -m generator.cli timeline --spec $R/specs/h200-flags.yaml $S --json "$OUT/timeline1.json" > "$OUT/timeline1.log" 2>&1
grep -B2 -A14 "slot" "$OUT/timeline1.log" | grep -v "^--$" | head -80
