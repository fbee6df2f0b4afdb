#!/bin/bash
# Run 1: the wgmma rate at N = 16 (mma_rate.py).
set -x
cd perf/run-2026-12-01-twentyfourth
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm --format=csv
python3 mma_rate.py $OUT/mma1.json 2>&1 | tee $OUT/mma1.log
