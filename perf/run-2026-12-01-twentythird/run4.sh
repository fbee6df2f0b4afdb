#!/usr/bin/env bash
# Fourth device call (twenty-third session): merge flags, one word a split
# polled alone (volatile), then the share loaded (run 3: polling the whole
# share from the start was 4-8 us slower), against three copies of the build;
# timelines of the variant and of the build.
set -uo pipefail
R=perf/run-2026-12-01-twentythird
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run4.txt"
CMP_SHAPES=4x1024,4x8192,32x1024,64x1024 timeout 100 python3 perf/run-2026-12-01-fifteenth/cmp.py \
  "$OUT/cmp4.json" $V/base_a.py $V/flags_a.py > "$OUT/cmp4.log" 2>&1; tail -c 1500 "$OUT/cmp4.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=4x1024,4x8192,32x1024,64x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 150 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound4.json" $V/base_a.py $V/base_b.py $V/base_c.py \
  $V/flags_a.py $V/flags_b.py 2>&1 | tee "$OUT/bound4.log" | tail -8
S="--shapes b4_kv1024 --shapes b4_kv8192 --shapes b32_kv1024 --shapes b64_kv1024"
timeout 100 python3 -m generator.cli timeline --spec $R/specs/h200-flags.yaml $S --json "$OUT/timeline4.json" > "$OUT/timeline4.log" 2>&1
grep -B2 -A14 "slot" "$OUT/timeline4.log" | grep -v "^--$" | head -80
timeout 100 python3 -m generator.cli timeline --spec specs/h200.yaml $S --json "$OUT/timeline4-base.json" > "$OUT/timeline4-base.log" 2>&1
