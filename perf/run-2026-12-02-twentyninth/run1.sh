#!/usr/bin/env bash
# First device call (twenty-ninth session): the accesses beside the KV stream
# under an L2 evict-first policy (mkhint.py: q = Q's loads, qo = and the bf16
# output's stores, qop = and the partials' stores and the merge's loads), so
# that they stop writing back the clear's modified lines. Outputs, one process
# (300 calls a file, shuffled, L2 dirty, every shape), then HBM bytes by ncu.
set -uo pipefail
R=perf/run-2026-12-02-twentyninth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run1.txt"
timeout 300 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp1.json" $V/base_a.py $V/q.py $V/qo.py $V/qop.py \
  > "$OUT/cmp1.log" 2>&1
grep -o '"vs_first": \[[^]]*\]' "$OUT/cmp1.log" | sort | uniq -c; tail -2 "$OUT/cmp1.log"
BOUND_SHUFFLE=1 BOUND_STATES=dirty BOUND_RUNS=300 timeout 300 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound1.json" $V/base_a.py $V/base_b.py $V/q.py $V/qo.py $V/qop.py \
  2>&1 | tee "$OUT/bound1.log" | tail -12
NCU_SHAPES=256x1024,32x8192,64x1024 REPS=2 timeout 150 ncu --cache-control none \
  --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum \
  -k regex:_gluon --csv python3 perf/run-2026-12-01-thirteenth/ncu_l2.py $V/base_a.py $V/qop.py \
  > "$OUT/ncu1.csv" 2> "$OUT/ncu1.err"
tail -3 "$OUT/ncu1.err"; grep -c dram__bytes_read "$OUT/ncu1.csv"
