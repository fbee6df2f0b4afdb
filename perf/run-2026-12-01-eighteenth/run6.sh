#!/usr/bin/env bash
# Sixth device call (eighteenth session): b256 kv1024 is 0.2 us from 70% of
# HBM (run 5: 51.42 us, 69.7%). Its prologue and loop switches together,
# each of which was within 0.3 us alone in earlier sessions: stagger;
# stagger + late_fill; lazy_rescale + early_refill; stagger + lazy_rescale
# + early_refill; all four; against three copies of 2eb64a4's build, one
# process, dirty L2, 400 calls, shuffled; then gen check of each on the shape.
set -uo pipefail
R=perf/run-2026-12-01-eighteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=256x1024 BOUND_STATES=dirty BOUND_RUNS=400 timeout 300 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound6.json" \
  $R/v/base_a.py $R/v/b256stag.py $R/v/b256staglf.py $R/v/base_b.py $R/v/b256lazyer.py $R/v/b256staglazyer.py \
  $R/v/b256all.py $R/v/base_c.py 2>&1 | grep -E "^b[0-9]|Error|error|Timeout" | tee "$OUT/bound6.log"
for v in b256stag b256staglf b256lazyer b256staglazyer b256all; do
  timeout 60 python3 -m generator.cli check --spec $R/specs/h200-$v.yaml --shapes b256_kv1024 --json "$OUT/check6-$v.json" > "$OUT/check6-$v.log" 2>&1
  echo "check $v rc $?"; grep -cE "^│ [a-z].*pass" "$OUT/check6-$v.log"
done
