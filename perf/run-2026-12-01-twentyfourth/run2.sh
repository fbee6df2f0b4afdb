#!/bin/bash
# Run 2: ncu pipe and shared-memory figures of the consumer-bound kernels
# (b256 kv1024: one warpgroup, two programs an SM; b64 kv8192: two consumer
# warpgroups) and of mma_rate.py's tensor-only tile (two programs an SM).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD
ncu --query-metrics 2>/dev/null | grep -i -E "gmma|pipe_tensor|pipe_shared|data_bank|wavefronts_mem_shared" > $OUT/metric_names.txt
M=sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_tensor_op_gmma.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_reads.avg.pct_of_peak_sustained_elapsed,l1tex__data_bank_writes.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg,smsp__cycles_active.avg
S="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section InstructionStats --section WarpStateStats --section SchedulerStats"
for spec in "256 1024 run_b256_kv1024 mla_b256_kv1024" "64 8192 run_b64_kv8192 mla_b64_kv8192" "32 8192 run_b32_kv8192 mla_b32_kv8192"; do
  set -- $spec
  timeout 150 ncu --clock-control none $S --metrics $M -k "regex:$4" -s 4 -c 1 --csv \
    python3 scripts/profile_runner.py build/h200/submission.py $1 $2 6 $3 > $OUT/ncu_$1_$2.csv 2>&1
done
for c in "16 1 1 264" "16 1 1 132" "16 1 0 264" "16 0 1 264"; do
  set -- $c
  timeout 100 ncu --clock-control none $S --metrics $M -k regex:mma_rate -s 2 -c 1 --csv \
    python3 perf/run-2026-12-01-twentyfourth/mma_rate.py --case $1 $2 $3 $4 > $OUT/ncu_mma_$1_$2_$3_$4.csv 2>&1
done
ls -la $OUT
