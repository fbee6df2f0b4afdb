#!/usr/bin/env bash
# Eighth device call (twenty-fourth session): mkbar.py's variant (two false
# CTA barriers of Triton's barrier pass dropped from the PTX: between a
# tile's two TMA copies, and before the mbarrier wait for the next tile)
# against the build (def74f5's kernels, b13c609): outputs on the eight
# shapes, one-process timing (two copies each, 300 calls a file, shuffled,
# L2 dirty). Timing and outputs only.
set -uo pipefail
R=perf/run-2026-12-01-twentyfourth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 150 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp8.json" $V/new_a.py $V/bar_a.py > "$OUT/cmp8.log" 2>&1
grep -o '"vs_first": \[[^]]*\]' "$OUT/cmp8.log" | sort | uniq -c
BOUND_SHUFFLE=1 BOUND_STATES=dirty BOUND_RUNS=300 timeout 300 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound8.json" $V/new_a.py $V/new_b.py $V/bar_a.py $V/bar_b.py \
  2>&1 | tee "$OUT/bound8.log" | tail -9
