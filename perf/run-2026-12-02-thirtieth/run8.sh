#!/usr/bin/env bash
# Eighth device call (thirtieth session): b32 kv1024's switches behind its
# new 3-stage ring (specs/h200-b32k1-*.yaml: nol2 = no L2 policy, nolate =
# no late_fill / q_fill, norefill = no early_refill, poll = compact_lse with
# merge_poll load). One process (400 calls a file, shuffled, L2 dirty)
# against two copies of the build of bb4812f.
set -uo pipefail
R=perf/run-2026-12-02-thirtieth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run8.txt"
CMP_SHAPES=32x1024 timeout 120 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp8.json" $V/base_a.py $V/nol2.py \
  $V/nolate.py $V/norefill.py $V/poll.py > "$OUT/cmp8.log" 2>&1
grep -o '"vs_first": \[[^]]*\]' "$OUT/cmp8.log" | sort | uniq -c
for k in a b; do
BOUND_SHUFFLE=1 BOUND_SHAPES=32x1024 BOUND_STATES=dirty BOUND_RUNS=400 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound8$k.json" $V/base_a.py $V/base_b.py $V/nol2.py $V/nolate.py \
  $V/norefill.py $V/poll.py 2>&1 | tee "$OUT/bound8$k.log" | tail -1
done
