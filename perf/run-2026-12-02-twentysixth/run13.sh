#!/usr/bin/env bash
# Thirteenth device call (twenty-sixth session): specs/h200.yaml with
# l2_policy evict_first on b4 kv1024 (ef_*) against the build of 91d16a8
# (cur_*): gen check of the shape, then one process, 400 calls a file,
# shuffled, L2 dirty.
set -uo pipefail
R=perf/run-2026-12-02-twentysixth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 120 python3 -m generator.cli check --spec specs/h200.yaml --shapes b4_kv1024 --json "$OUT/check13.json" \
  > "$OUT/check13.log" 2>&1
grep -cE "│ pass" "$OUT/check13.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=4x1024 BOUND_STATES=dirty BOUND_RUNS=400 timeout 150 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound13.json" $V/cur_a.py $V/cur_b.py $V/ef_a.py $V/ef_b.py \
  2>&1 | tee "$OUT/bound13.log" | tail -2
