#!/usr/bin/env bash
# Eleventh device call (twentieth session): b4 kv8192 with lazy_rescale and
# early_refill, with l2_policy evict_last, and with all three
# (specs/h200-b4k8-*.yaml) against three copies of the build (2dfa152), one
# process, 300 calls a file; gen check of all three on b4 kv8192.
set -uo pipefail
R=perf/run-2026-12-01-twentieth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv > "$OUT/gpu-run11.txt" 2>&1
BOUND_SHUFFLE=1 BOUND_SHAPES=4x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 300 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound11.json" $V/base_a.py $V/base_b.py $V/base_c.py \
  $V/lrer_a.py $V/lrer_b.py $V/el_a.py $V/el_b.py $V/lrerel_a.py $V/lrerel_b.py 2>&1 | tee "$OUT/bound11.log" | tail -3
for n in lrer el lrerel; do
  timeout 120 python3 -m generator.cli check --spec $R/specs/h200-b4k8-$n.yaml --shapes b4_kv8192 --json "$OUT/check11-$n.json" \
    > "$OUT/check11-$n.log" 2>&1; echo "$n rc $?"
done
