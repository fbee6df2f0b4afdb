#!/usr/bin/env bash
# Fifth device call (twenty-fourth session): the build with v_row_swap on
# b4 kv8192, b32 kv1024, b32 kv8192, b64 kv1024 and b256 kv1024 (new_*)
# against the build before (base_*, 7ea2d17): outputs on the eight shapes,
# one-process timing (two copies each, 300 calls a file, shuffled, L2
# dirty); then the record of the commit: gen check, gen bench with both
# baselines (compared with the twenty-third session's record), leaderboard
# mode.
set -uo pipefail
R=perf/run-2026-12-01-twentyfourth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run5.txt"
timeout 150 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp5.json" $V/base_a.py $V/new_a.py > "$OUT/cmp5.log" 2>&1
grep -o '"vs_first": \[[^]]*\]' "$OUT/cmp5.log" | sort | uniq -c
BOUND_SHUFFLE=1 BOUND_STATES=dirty BOUND_RUNS=300 timeout 330 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound5.json" $V/base_a.py $V/base_b.py $V/new_a.py $V/new_b.py \
  2>&1 | tee "$OUT/bound5.log" | tail -9
GEN_COMMIT=${GEN_COMMIT:?} BENCH_COMPARE=perf/h200-2026-12-01-session23-final.json OUT=$OUT \
  timeout 420 scripts/device_run.sh "check bench bench-lb" > "$OUT/run5.log" 2>&1
grep -E "passed|failed|geomean|b[0-9]+_kv" "$OUT/run5.log" | tail -40
