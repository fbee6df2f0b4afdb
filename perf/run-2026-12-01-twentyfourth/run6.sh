#!/usr/bin/env bash
# Sixth device call (twenty-fourth session): with V's loads conflict-free,
# does V's look-ahead still pay (specs/h200-nolook.yaml: v_lookahead off on
# b4 kv8192, b32 kv1024, b32 kv8192, b64 kv1024), and do V's rows paired
# before conversion now pay on the b64 shapes (specs/h200-pairs.yaml)?
# Against two copies of the build (def74f5): outputs, one-process timing.
set -uo pipefail
R=perf/run-2026-12-01-twentyfourth
V=$R/v
S=4x8192,32x1024,32x8192,64x1024,64x8192
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
CMP_SHAPES=$S timeout 120 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp6.json" $V/new_a.py $V/nolook.py $V/pairs.py \
  > "$OUT/cmp6.log" 2>&1
grep -o '"vs_first": \[[^]]*\]' "$OUT/cmp6.log" | sort | uniq -c
BOUND_SHUFFLE=1 BOUND_SHAPES=$S BOUND_STATES=dirty BOUND_RUNS=300 timeout 240 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound6.json" $V/new_a.py $V/new_b.py $V/nolook.py $V/pairs.py \
  2>&1 | tee "$OUT/bound6.log" | tail -6
