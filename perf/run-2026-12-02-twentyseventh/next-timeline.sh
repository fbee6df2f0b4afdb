#!/usr/bin/env bash
# Prepared for the next session (not run): where b32 kv1024 loses 0.3-0.45 us
# with merge_poll load (PERF.md, twenty-seventh session, items 5, 6, 8): gen
# timeline of the shape with the build's atomic poll and with
# specs/h200-b32-load.yaml (merge_poll load on b32 kv1024 as well), 60 calls
# each; compare the steps after the loop (stores issued, arrived, barrier
# passed, merge stores issued) and their spread over programs.
set -uo pipefail
R=perf/run-2026-12-02-twentyseventh
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
for s in specs/h200.yaml $R/specs/h200-b32-load.yaml; do
  n=$(basename "$s" .yaml)
  timeout 200 python3 -m generator.cli timeline --spec "$s" --shapes b32_kv1024 --runs 60 --json "$OUT/timeline-$n.json" \
    > "$OUT/timeline-$n.log" 2>&1
  tail -25 "$OUT/timeline-$n.log"
done
