#!/usr/bin/env bash
# First device call (twenty-seventh session): p-bar.patch (a CTA barrier on
# the tile loop's last-tile path, so Triton's barrier pass no longer puts one
# before every tile's P store; pb_*) and the same plus mkbar1.py --tma (the
# barrier between a tile's two TMA copies dropped; pt_*) against the build of
# 2861bea (cur_*): outputs against cur_a, then one process, 300 calls a file,
# shuffled, L2 dirty.
set -uo pipefail
R=perf/run-2026-12-02-twentyseventh
V=$R/v
S=4x8192,32x1024,32x8192,64x8192,256x1024,256x8192
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run1.txt"
CMP_SHAPES=$S timeout 150 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp1.json" $V/cur_a.py $V/pb_a.py $V/pt_a.py \
  > "$OUT/cmp1.log" 2>&1
tail -8 "$OUT/cmp1.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=$S BOUND_STATES=dirty BOUND_RUNS=300 timeout 420 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound1.json" $V/cur_a.py $V/cur_b.py $V/pb_a.py $V/pb_b.py \
  $V/pt_a.py $V/pt_b.py 2>&1 | tee "$OUT/bound1.log" | tail -12
