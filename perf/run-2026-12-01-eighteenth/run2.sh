#!/usr/bin/env bash
# Second device call (eighteenth session): gen timeline of the committed spec
# and of the consumer_split dims variant (run 1: slower) on the three
# multi-tile shapes, to see which phase grew.
set -uo pipefail
R=perf/run-2026-12-01-eighteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
for s in specs/h200.yaml $R/specs/h200-dims-b4k1.yaml; do
  n=$(basename $s .yaml)
  timeout 200 python3 -m generator.cli timeline --spec $s --shapes b4_kv1024 --shapes b4_kv8192 --shapes b32_kv1024 \
    --shapes b64_kv1024 --runs 30 --json "$OUT/timeline2-$n.json" > "$OUT/timeline2-$n.log" 2>&1
  echo "== $n rc $?"; cat "$OUT/timeline2-$n.log" | tail -30
done
