#!/usr/bin/env bash
# Second device call (fourteenth session): merge cluster with the exchange buffer in whole KBs (run 1's
# b32 kv1024 buffer, 33,024 bytes, left Triton's swizzled buffers misaligned: wrong outputs); b4 kv1024 at
# cluster 16 and at 8 splits (cluster 8). Clusters the GPU holds at once; gen check; one process, dirty
# L2, 300 calls, shuffled, against two copies of build/h200 at 45b2014; gen timeline (whole tables).
set -uo pipefail
D=perf/run-2026-12-01-fourteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 60 python3 $D/occ.py $D/v/cluster.py 4x1024 32x1024 2>&1 | tail -5 | tee "$OUT/occ2.log"
timeout 60 python3 $D/occ.py $D/v/cluster8.py 4x1024 2>&1 | tail -5 | tee -a "$OUT/occ2.log"
timeout 150 python3 -m generator.cli check --spec $D/specs/h200-cluster.yaml --shapes b4_kv1024 --shapes b32_kv1024 \
  --json "$OUT/check2.json" 2>&1 | grep -E "^│ [a-z]" | tee "$OUT/check2.log"
timeout 100 python3 -m generator.cli check --spec $D/specs/h200-cluster8.yaml --shapes b4_kv1024 \
  --json "$OUT/check2-8.json" 2>&1 | grep -E "^│ [a-z]" | tee -a "$OUT/check2.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=4x1024,32x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound2.json" \
  $D/v/base_a.py $D/v/cluster.py $D/v/cluster8.py $D/v/base_b.py 2>&1 | tail -4 | tee "$OUT/bound2.log"
for s in specs/h200.yaml $D/specs/h200-cluster.yaml $D/specs/h200-cluster8.yaml; do
  timeout 90 python3 -m generator.cli timeline --spec $s --shapes b4_kv1024 --shapes b32_kv1024 --runs 40 2>&1 | grep -E "│|shape|b4|b32" | tee -a "$OUT/timeline2.log"
done
