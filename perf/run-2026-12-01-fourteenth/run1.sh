#!/usr/bin/env bash
# First device call (fourteenth session): merge cluster (the splits of a row exchange their partials
# through distributed shared memory in a thread-block cluster) on b4 kv1024 (cluster 16) and b32 kv1024
# (cluster 4). gen check of the variant's two shapes; one process, dirty L2, 300 calls, shuffled, against
# two copies of build/h200 at 45b2014; gen timeline of both specs on the two shapes.
set -uo pipefail
D=perf/run-2026-12-01-fourteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 150 python3 -m generator.cli check --spec $D/specs/h200-cluster.yaml --shapes b4_kv1024 --shapes b32_kv1024 \
  --json "$OUT/check1.json" 2>&1 | tail -25 | tee "$OUT/check1.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=4x1024,32x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound1.json" \
  $D/v/base_a.py $D/v/cluster.py $D/v/base_b.py 2>&1 | tail -30 | tee "$OUT/bound1.log"
for s in specs/h200.yaml $D/specs/h200-cluster.yaml; do
  timeout 90 python3 -m generator.cli timeline --spec $s --shapes b4_kv1024 --shapes b32_kv1024 --runs 40 2>&1 | tail -12 | tee -a "$OUT/timeline1.log"
done
