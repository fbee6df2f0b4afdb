#!/usr/bin/env bash
# Second device call (twenty-ninth session): pacing on the b256 shapes
# (mkpace.py: a program ahead of the grid's progress sleeps SLEEP ns before
# its next tile; pS_N = SLEEP S, SLACK N; p0s1 = the counters and the check
# with a zero sleep). Outputs, then one process (300 calls a file, shuffled,
# L2 dirty).
set -uo pipefail
R=perf/run-2026-12-02-twentyninth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run2.txt"
CMP_SHAPES=256x1024,256x8192 timeout 200 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp2.json" \
  $V/base_a.py $V/p500s1.py $V/p0s1.py > "$OUT/cmp2.log" 2>&1
grep -o '"vs_first": \[[^]]*\]' "$OUT/cmp2.log" | sort | uniq -c; tail -2 "$OUT/cmp2.log" | cut -c1-300
BOUND_SHUFFLE=1 BOUND_SHAPES=256x1024,256x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 330 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound2.json" $V/base_a.py $V/base_b.py $V/p0s1.py $V/p250s1.py \
  $V/p500s1.py $V/p1000s1.py $V/p500s0.py $V/p500s2.py 2>&1 | tee "$OUT/bound2.log" | tail -4
