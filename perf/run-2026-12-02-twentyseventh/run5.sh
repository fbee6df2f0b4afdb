#!/usr/bin/env bash
# Fifth device call (twenty-seventh session): the output parts cast to their
# 16-bit type before the epilogue's move through shared memory
# (cast-first.patch: the move in stmatrix, half the bytes; cf_*) against the
# build of 2861bea (cur_*): outputs against cur_a on every shape, then one
# process, 300 calls a file, shuffled, L2 dirty.
set -uo pipefail
R=perf/run-2026-12-02-twentyseventh
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run5.txt"
CMP_SHAPES=4x1024,4x8192,32x1024,64x1024,256x1024,256x8192 timeout 150 python3 perf/run-2026-12-01-fifteenth/cmp.py \
  "$OUT/cmp5.json" $V/cur_a.py $V/cf_a.py > "$OUT/cmp5.log" 2>&1
grep -o '"cf_a": {"ref": \[[^]]*\], "vs_first": \[[^]]*\]' "$OUT/cmp5.log"
BOUND_SHUFFLE=1 BOUND_STATES=dirty BOUND_RUNS=300 timeout 400 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound5.json" $V/cur_a.py $V/cur_b.py $V/cf_a.py $V/cf_b.py \
  2>&1 | tee "$OUT/bound5.log" | tail -8
