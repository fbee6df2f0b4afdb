#!/usr/bin/env bash
# Seventh device call (twenty-seventh session): each row's merge counter in
# its own 128-byte line (pad-counters.patch: the rows' counters were
# contiguous int64s, 16 to a line, so every program of a shape polled and
# arrived at one or two lines; pad_*), and the same with ld-acquire.patch
# (padld_*), against the build of 2861bea (cur_*): outputs against cur_a,
# then one process, 300 calls a file, shuffled, L2 dirty, the six split
# shapes.
set -uo pipefail
R=perf/run-2026-12-02-twentyseventh
V=$R/v
S=4x1024,4x8192,32x1024,32x8192,64x1024,64x8192
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run7.txt"
CMP_SHAPES=4x1024,4x8192,32x1024,64x1024 timeout 150 python3 perf/run-2026-12-01-fifteenth/cmp.py \
  "$OUT/cmp7.json" $V/cur_a.py $V/pad_a.py $V/padld_a.py > "$OUT/cmp7.log" 2>&1
grep -o '"vs_first": \[[^]]*\]' "$OUT/cmp7.log" | sort | uniq -c
BOUND_SHUFFLE=1 BOUND_SHAPES=$S BOUND_STATES=dirty BOUND_RUNS=300 timeout 400 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound7.json" $V/cur_a.py $V/cur_b.py $V/pad_a.py $V/pad_b.py \
  $V/padld_a.py $V/padld_b.py 2>&1 | tee "$OUT/bound7.log" | tail -6
