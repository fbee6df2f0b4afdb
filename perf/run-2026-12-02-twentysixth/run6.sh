#!/usr/bin/env bash
# Sixth device call (twenty-sixth session): late_fill with q_fill (the ring's
# second tile once Q is in, the rest once the first tile is in) on b64
# kv1024 (3-stage ring) and the two b256 shapes (2-stage rings),
# specs/h200-lfqf.yaml, alone (lfqf) and with v-early1.patch (lfqfe1);
# v-early1.patch alone (e1n) for reference. Against two copies of the build
# of b256560 (new_*). One process, 300 calls a file, shuffled, L2 dirty.
set -uo pipefail
R=perf/run-2026-12-02-twentysixth
V=$R/v
S=64x1024,256x1024,256x8192
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
CMP_SHAPES=$S timeout 100 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp6.json" $V/new_a.py $V/lfqf.py $V/lfqfe1.py \
  > "$OUT/cmp6.log" 2>&1
tail -3 "$OUT/cmp6.log" | cut -c1-300
BOUND_SHUFFLE=1 BOUND_SHAPES=$S BOUND_STATES=dirty BOUND_RUNS=300 timeout 300 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound6.json" $V/new_a.py $V/new_b.py $V/e1n_a.py $V/lfqf.py $V/lfqfe1.py \
  2>&1 | tee "$OUT/bound6.log" | tail -4
