#!/usr/bin/env bash
# Third device call (twenty-third session): merge flags with strong (.cg)
# stores of the flagged words (flagsst: loads still volatile; flags: .cg
# loads too; run 2: the flags showed 5 us after weak
# stores) against three copies of the build: outputs, one-process timing,
# timeline.
set -uo pipefail
R=perf/run-2026-12-01-twentythird
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run3.txt"
CMP_SHAPES=4x1024,4x8192,32x1024,64x1024 timeout 100 python3 perf/run-2026-12-01-fifteenth/cmp.py \
  "$OUT/cmp3.json" $V/base_a.py $V/flags_a.py > "$OUT/cmp3.log" 2>&1; tail -c 1500 "$OUT/cmp3.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=4x1024,4x8192,32x1024,64x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 150 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound3.json" $V/base_a.py $V/base_b.py $V/base_c.py \
  $V/flagsst_a.py $V/flags_a.py $V/flags_b.py 2>&1 | tee "$OUT/bound3.log" | tail -8
S="--shapes b4_kv1024 --shapes b4_kv8192 --shapes b32_kv1024 --shapes b64_kv1024"
timeout 100 python3 -m generator.cli timeline --spec $R/specs/h200-flags.yaml $S --json "$OUT/timeline3.json" > "$OUT/timeline3.log" 2>&1
grep -B2 -A14 "slot" "$OUT/timeline3.log" | grep -v "^--$" | head -80
