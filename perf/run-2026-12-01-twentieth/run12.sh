#!/usr/bin/env bash
# Twelfth device call (twentieth session): b4 kv8192 with lazy_rescale,
# early_refill and evict_last again (run 11's lrerel), b4 kv1024 with
# l2_policy evict_last / evict_first (specs/h200-b4k1-e*.yaml), against three
# copies of the build (2dfa152), one process, 300 calls a file; gen check of
# the b4 kv1024 variants.
set -uo pipefail
R=perf/run-2026-12-01-twentieth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=4x1024,4x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 300 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound12.json" $V/base_a.py $V/base_b.py $V/base_c.py \
  $V/lrerel_a.py $V/lrerel_b.py $V/k1el_a.py $V/k1el_b.py $V/k1ef_a.py $V/k1ef_b.py 2>&1 | tee "$OUT/bound12.log" | tail -3
for n in el ef; do
  timeout 120 python3 -m generator.cli check --spec $R/specs/h200-b4k1-$n.yaml --shapes b4_kv1024 --json "$OUT/check12-$n.json" \
    > "$OUT/check12-$n.log" 2>&1; echo "$n rc $?"
done
