#!/usr/bin/env bash
# Sixth device call (twenty-seventh session): the merge barrier's wait polls
# the row's counter with an acquire load instead of an acquire atomic add of
# 0 (ld-acquire.patch: no read-modify-write queued beside the other
# programs' arrivals, no CTA barrier and shared-memory broadcast a poll;
# ld_*), and the same with cast-first.patch (cfld_*), against the build of
# 2861bea (cur_*): outputs against cur_a, then one process, 300 calls a
# file, shuffled, L2 dirty, the six split shapes.
set -uo pipefail
R=perf/run-2026-12-02-twentyseventh
V=$R/v
S=4x1024,4x8192,32x1024,32x8192,64x1024,64x8192
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run6.txt"
CMP_SHAPES=4x1024,4x8192,32x1024,64x1024 timeout 150 python3 perf/run-2026-12-01-fifteenth/cmp.py \
  "$OUT/cmp6.json" $V/cur_a.py $V/ld_a.py $V/cfld_a.py > "$OUT/cmp6.log" 2>&1
grep -o '"vs_first": \[[^]]*\]' "$OUT/cmp6.log" | sort | uniq -c
BOUND_SHUFFLE=1 BOUND_SHAPES=$S BOUND_STATES=dirty BOUND_RUNS=300 timeout 400 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound6.json" $V/cur_a.py $V/cur_b.py $V/ld_a.py $V/ld_b.py \
  $V/cfld_a.py $V/cfld_b.py 2>&1 | tee "$OUT/bound6.log" | tail -6
