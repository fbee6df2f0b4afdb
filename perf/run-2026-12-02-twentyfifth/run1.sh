#!/bin/bash
# Run 1: the PV product as fp8 wgmmas (P in e4m3) against fp16 (pv_rate.py).
set -x
cd perf/run-2026-12-02-twentyfifth
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm --format=csv
python3 pv_rate.py $OUT/pv1.json 2>&1 | tee $OUT/pv1.log
