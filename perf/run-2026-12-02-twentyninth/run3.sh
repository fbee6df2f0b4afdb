#!/usr/bin/env bash
# Third device call (twenty-ninth session): pacing with the counters over 8
# or 16 lines and the loads reduced a tile later (mkpace.py, LINES 8/16;
# lLsS = LINES L, SLEEP S ns, SLACK 1; l8s0 = loads and check with no
# sleep; l8add = the adds alone). One process (300 calls a file, shuffled,
# L2 dirty).
set -uo pipefail
R=perf/run-2026-12-02-twentyninth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run3.txt"
CMP_SHAPES=256x1024,256x8192 timeout 200 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp3.json" \
  $V/base_a.py $V/l8s1000.py > "$OUT/cmp3.log" 2>&1
grep -o '"vs_first": \[[^]]*\]' "$OUT/cmp3.log" | sort | uniq -c
BOUND_SHUFFLE=1 BOUND_SHAPES=256x1024,256x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 330 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound3.json" $V/base_a.py $V/base_b.py $V/l8add.py $V/l8s0.py \
  $V/l8s500.py $V/l8s1000.py $V/l8s2000.py $V/l16s1000.py 2>&1 | tee "$OUT/bound3.log" | tail -4
