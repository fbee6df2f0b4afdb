#!/usr/bin/env bash
# Fourth device call (twenty-eighth session): where a call goes now, every
# shape (gen timeline of 86ccc4e, 40 calls; the last full timeline was the
# twenty-second session's, before fp8 PV), then the twenty-seventh session's
# prepared lead: b32 kv1024 with merge_poll load (its
# specs/h200-b32-load.yaml) against the build's atomic poll, 60 calls each.
set -uo pipefail
R=perf/run-2026-12-02-twentyseventh
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run4.txt"
timeout 300 python3 -m generator.cli timeline --spec specs/h200.yaml --runs 40 --json "$OUT/timeline4.json" \
  > "$OUT/timeline4.txt" 2>&1
tail -14 "$OUT/timeline4.txt"
for s in specs/h200.yaml $R/specs/h200-b32-load.yaml; do
  n=$(basename "$s" .yaml)
  timeout 120 python3 -m generator.cli timeline --spec "$s" --shapes b32_kv1024 --runs 60 \
    --json "$OUT/timeline4-b32k1-$n.json" > "$OUT/timeline4-b32k1-$n.txt" 2>&1
  head -16 "$OUT/timeline4-b32k1-$n.txt"
done
