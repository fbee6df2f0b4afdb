#!/usr/bin/env bash
# ncu source counters (SASS, stall reasons per instruction) of chosen runners' kernels.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD
# SHAPES: "batch kv_len runner kernel-regex" entries separated by ";" (default: the three below).
# SUBMISSION: the generated file (default build/h200/submission.py).
SUBMISSION=${SUBMISSION:-build/h200/submission.py}
SHAPES=${SHAPES:-"256 64 run_b256_kv1024 mla_b256_kv1024;4 1024 run_b4_kv1024 mla_b4_kv1024;256 1024 run_b256_kv1024 mla_b256_kv1024"}
IFS=';' read -ra entries <<< "$SHAPES"
for shape in "${entries[@]}"; do
  set -- $shape
  timeout 200 ncu --clock-control none --section SourceCounters --section WarpStateStats --warp-sampling-interval 0 \
    -k "regex:$4" -s 4 -c 2 -o /tmp/rep_$1_$2 \
    python3 scripts/profile_runner.py "$SUBMISSION" "$1" "$2" 6 "$3" >> $OUT/ncu.log 2>&1
  ncu -i /tmp/rep_$1_$2.ncu-rep --page source --csv --print-source sass > /tmp/src_$1_$2.csv 2>&1
  ncu -i /tmp/rep_$1_$2.ncu-rep --page details --csv > /tmp/det_$1_$2.csv 2>&1
  gzip -c /tmp/src_$1_$2.csv > $OUT/src_$1_$2.csv.gz
  gzip -c /tmp/det_$1_$2.csv > $OUT/det_$1_$2.csv.gz
done
ls -la $OUT
