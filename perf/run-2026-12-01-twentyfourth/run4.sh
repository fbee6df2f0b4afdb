#!/usr/bin/env bash
# Fourth device call (twenty-fourth session): mkperm.py's variant (V's rows
# swapped in odd pairs so that the V^T loads have no bank conflict, P stored
# in the same order) on the seven V-from-registers shapes: outputs against
# the build, ncu's bank conflicts on b256 kv1024, one-process timing (two
# copies each, 300 calls a file, shuffled, L2 dirty).
set -uo pipefail
R=perf/run-2026-12-01-twentyfourth
V=$R/v
S=4x8192,32x1024,32x8192,64x1024,64x8192,256x1024,256x8192
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run4.txt"
CMP_SHAPES=$S timeout 150 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp4.json" $V/base_a.py $V/perm_a.py \
  > "$OUT/cmp4.log" 2>&1
tail -5 "$OUT/cmp4.log"
timeout 60 ncu --clock-control none --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,gpu__time_duration.sum \
  -k regex:mla_b256_kv1024 -s 4 -c 1 --csv python3 scripts/profile_runner.py $V/perm_a.py 256 1024 6 run_b256_kv1024 \
  > "$OUT/ncu4.csv" 2>&1
tail -3 "$OUT/ncu4.csv"
BOUND_SHUFFLE=1 BOUND_SHAPES=$S BOUND_STATES=dirty BOUND_RUNS=300 timeout 330 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound4.json" $V/base_a.py $V/base_b.py $V/perm_a.py $V/perm_b.py \
  2>&1 | tee "$OUT/bound4.log" | tail -12
