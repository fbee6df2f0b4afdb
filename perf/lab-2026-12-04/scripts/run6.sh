#!/usr/bin/env bash
# Run 6: ncu source counters (stall samples per SASS instruction) of b32 kv1024, old build against new.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
for f in base_a new; do
  timeout 200 ncu --clock-control none --section SourceCounters --section WarpStateStats --warp-sampling-interval 0 \
    -k "regex:mla_b32_kv1024" -s 3 -c 1 -o /tmp/rep_$f python3 .lab/profile_runner.py .lab/v4/$f.py 32 1024 5 run_b32_kv1024 > "$OUT/ncu_$f.log" 2>&1
  echo "$f rc $?"
  ncu -i /tmp/rep_$f.ncu-rep --page source --csv --print-source sass > /tmp/src_$f.csv 2>&1
  ncu -i /tmp/rep_$f.ncu-rep --page details --csv > /tmp/det_$f.csv 2>&1
  gzip -c /tmp/src_$f.csv > "$OUT/src_$f.csv.gz"; gzip -c /tmp/det_$f.csv > "$OUT/det_$f.csv.gz"
done
ls -la "$OUT"
