#!/usr/bin/env bash
# Third device call (thirtieth session): the row's barrier counter asked of
# L2 at the epilogue's start (mkpfc.py: pfcnt_late), and with it the
# program's partial and log-sum-exp lines (pfpart_late). Outputs, then one
# process (300 calls a file, shuffled, L2 dirty, the six split shapes) against
# two copies of the build.
set -uo pipefail
R=perf/run-2026-12-02-thirtieth
V=$R/v
S=4x1024,4x8192,32x1024,32x8192,64x1024,64x8192
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run3.txt"
CMP_SHAPES=$S timeout 240 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp3.json" $V/base_a.py $V/pfcnt_late.py \
  $V/pfpart_late.py > "$OUT/cmp3.log" 2>&1
grep -o '"vs_first": \[[^]]*\]' "$OUT/cmp3.log" | sort | uniq -c; tail -2 "$OUT/cmp3.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=$S BOUND_STATES=dirty BOUND_RUNS=300 timeout 330 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound3.json" $V/base_a.py $V/base_b.py $V/pfcnt_late.py $V/pfpart_late.py \
  2>&1 | tee "$OUT/bound3.log" | tail -8
