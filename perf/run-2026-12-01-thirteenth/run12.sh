#!/usr/bin/env bash
# Twelfth device call (thirteenth session): b256 kv1024 is 1 us from 70% of HBM; with evict_first, do the
# prologue choices measured before it (speculate, late_fill, stagger; all tied or slower without it) now
# move it? specs/h200-b256-{spec,late,stag}.yaml against specs/h200.yaml at 620636c (two copies), one
# process, 300 calls, dirty L2, shuffled; gen check of the three variants' b256 kv1024.
set -uo pipefail
D=perf/run-2026-12-01-thirteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
for n in spec late stag; do
  timeout 100 python3 -m generator.cli check --spec $D/specs/h200-b256-$n.yaml --shapes b256_kv1024 2>&1 | grep -E "^│ b256" | tee -a "$OUT/check12.log"
done
BOUND_SHUFFLE=1 BOUND_SHAPES=256x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound12.json" \
  $D/v/base_a.py $D/v/spec.py $D/v/late.py $D/v/stag.py $D/v/base_b.py 2>&1 | tee "$OUT/bound12.log"
