#!/usr/bin/env bash
# Tenth device call (thirteenth session): run 8's ncu count of HBM bytes on the three small split shapes
# (b4 kv1024, b4 kv8192, b32 kv1024), where no policy changed the time: does evict_first keep the clear's
# lines there too? Same files as run 8 (v/, not kept).
set -uo pipefail
D=perf/run-2026-12-01-thirteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
NCU_SHAPES=4x1024,4x8192,32x1024 timeout 300 ncu --cache-control none \
  --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum \
  -k regex:_gluon --csv python3 $D/ncu_l2.py $D/v/base.py $D/v/ef.py $D/v/el.py > "$OUT/ncu10.csv" 2> "$OUT/ncu10.err"
tail -3 "$OUT/ncu10.err"; grep -c dram__bytes_read "$OUT/ncu10.csv"
