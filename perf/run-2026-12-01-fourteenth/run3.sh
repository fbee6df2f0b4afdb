#!/usr/bin/env bash
# Third device call (fourteenth session): what a cluster launch costs (cluster_launch.py), and gen
# timeline of b4 kv1024 over all its programs (timeline.py now counts a cluster launch's programs).
set -uo pipefail
D=perf/run-2026-12-01-fourteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 120 python3 $D/cluster_launch.py "$OUT/launch3.json" 2>&1 | tail -8 | tee "$OUT/launch3.log"
for s in specs/h200.yaml $D/specs/h200-cluster.yaml $D/specs/h200-cluster8.yaml; do
  timeout 90 python3 -m generator.cli timeline --spec $s --shapes b4_kv1024 --runs 40 2>&1 | grep -E "│|programs" | tee -a "$OUT/timeline3.log"
done
