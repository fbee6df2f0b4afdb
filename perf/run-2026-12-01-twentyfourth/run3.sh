#!/bin/bash
# Run 3: ncu raw figures (tensor pipe active cycles, GMMA shared-memory
# wavefronts and bank conflicts, warp stall reasons) of b256 kv1024 (two
# one-warpgroup programs an SM), b4 kv8192 (one an SM), b64 kv8192
# (consumers 2) and mma_rate.py's tensor-only tile (one and two programs an SM).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD
M=sm__pipe_tensor_cycles_active_realtime.sum,sm__pipe_tensor_op_hmma_cycles_active_realtime.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma.sum,l1tex__lsu_writeback_active_mem_shared_op_gmma.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_bank_reads.sum,l1tex__data_bank_writes.sum,sm__cycles_active.sum,smsp__inst_executed.sum,sm__inst_executed_pipe_tensor_op_gmma.sum,gpu__time_duration.sum
S="--section WarpStateStats"
for spec in "256 1024 run_b256_kv1024 mla_b256_kv1024" "4 8192 run_b4_kv8192 mla_b4_kv8192" "64 8192 run_b64_kv8192 mla_b64_kv8192"; do
  set -- $spec
  timeout 150 ncu --clock-control none $S --metrics $M -k "regex:$4" -s 4 -c 1 --csv --page raw \
    python3 scripts/profile_runner.py build/h200/submission.py $1 $2 6 $3 > $OUT/raw_$1_$2.csv 2>&1
done
for c in "16 1 1 264" "16 1 1 132" "16 1 0 264" "16 0 1 264"; do
  set -- $c
  timeout 100 ncu --clock-control none $S --metrics $M -k regex:mma_rate -s 2 -c 1 --csv --page raw \
    python3 perf/run-2026-12-01-twentyfourth/mma_rate.py --case $1 $2 $3 $4 > $OUT/raw_mma_$1_$2_$3_$4.csv 2>&1
done
ls -la $OUT
