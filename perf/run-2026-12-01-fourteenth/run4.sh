#!/usr/bin/env bash
# Fourth device call (fourteenth session): merge cluster with 16-byte remote stores and loads (run 3's
# scalar sends took 1.6 us median, 2.9 the latest). b4 kv1024 at cluster 16 as built (two programs an SM
# fit), and cluster_pad.py: its exchange buffer padded to 40 KB, one program an SM. Clusters held at
# once; gen check; one process (dirty L2, 300 calls, shuffled) against two copies of build/h200 at
# 45b2014; gen timeline of the variant.
set -uo pipefail
D=perf/run-2026-12-01-fourteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 60 python3 $D/occ.py $D/v/cluster.py 4x1024 2>&1 | tail -3 | tee "$OUT/occ4.log"
timeout 60 python3 $D/occ.py $D/v/cluster_pad.py 4x1024 2>&1 | tail -3 | tee -a "$OUT/occ4.log"
timeout 150 python3 -m generator.cli check --spec $D/specs/h200-cluster.yaml --shapes b4_kv1024 --shapes b32_kv1024 \
  --json "$OUT/check4.json" 2>&1 | grep -E "^│ [a-z]" | tee "$OUT/check4.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=4x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound4.json" \
  $D/v/base_a.py $D/v/cluster.py $D/v/cluster_pad.py $D/v/base_b.py 2>&1 | tail -3 | tee "$OUT/bound4.log"
timeout 90 python3 -m generator.cli timeline --spec $D/specs/h200-cluster.yaml --shapes b4_kv1024 --runs 40 2>&1 | grep -E "│|programs" | tee -a "$OUT/timeline4.log"
