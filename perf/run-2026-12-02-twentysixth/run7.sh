#!/usr/bin/env bash
# Seventh device call (twenty-sixth session): the v_early field (runs 1, 5
# and 6's e1 as a spec field) on b64 kv1024, alone (ve) and with late_fill
# and q_fill (vefq), two copies each, against two copies of the build of
# b256560 (new_*): outputs, then one process, 400 calls a file, shuffled,
# L2 dirty.
set -uo pipefail
R=perf/run-2026-12-02-twentysixth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
CMP_SHAPES=64x1024 timeout 100 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp7.json" $V/new_a.py $V/ve_a.py $V/vefq_a.py \
  > "$OUT/cmp7.log" 2>&1
tail -1 "$OUT/cmp7.log" | cut -c1-400
BOUND_SHUFFLE=1 BOUND_SHAPES=64x1024 BOUND_STATES=dirty BOUND_RUNS=400 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound7.json" $V/new_a.py $V/new_b.py $V/ve_a.py $V/ve_b.py \
  $V/vefq_a.py $V/vefq_b.py 2>&1 | tee "$OUT/bound7.log" | tail -2
