#!/usr/bin/env bash
# Ninth device call (thirtieth session): one switch each on b64 kv1024 and
# b4 kv8192, on today's kernels (specs/h200-sw-*.yaml: refill = no
# early_refill, l2 = no L2 policy, late = no late_fill / q_fill, poll = b64
# kv1024 with compact_lse and merge_poll load, b4 kv8192 with the atomic
# poll). Outputs, then two one-process rounds (400 calls a file, shuffled,
# L2 dirty) against two copies of the build of bb4812f.
set -uo pipefail
R=perf/run-2026-12-02-thirtieth
V=$R/v
S=4x8192,64x1024
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run9.txt"
CMP_SHAPES=$S timeout 150 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp9.json" $V/base_a.py $V/refill.py \
  $V/l2.py $V/late.py $V/poll.py > "$OUT/cmp9.log" 2>&1
grep -o '"vs_first": \[[^]]*\]' "$OUT/cmp9.log" | sort | uniq -c
for k in a b; do
BOUND_SHUFFLE=1 BOUND_SHAPES=$S BOUND_STATES=dirty BOUND_RUNS=400 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound9$k.json" $V/base_a.py $V/base_b.py $V/refill.py $V/l2.py \
  $V/late.py $V/poll.py 2>&1 | tee "$OUT/bound9$k.log" | tail -2
done
