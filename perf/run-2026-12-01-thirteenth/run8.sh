#!/usr/bin/env bash
# Eighth device call (thirteenth session): what the L2 cache policy does to HBM traffic. Nsight Compute
# counts the bytes each attention kernel reads from and writes to HBM right after the 2 GiB clear
# (--cache-control none: the clear's modified lines stay in L2), three calls a file, for build/h200 at
# 4e5d3d9 (base: no hint) and make_ef.py's 23=evict_first (ef) and 23=evict_last (el) of it, on b256
# kv1024 (evict_first faster), b256 kv8192 and b64 kv8192 (evict_first slower). v/ is not kept.
set -uo pipefail
D=perf/run-2026-12-01-thirteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 400 ncu --cache-control none --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum \
  -k regex:_gluon --csv python3 $D/ncu_l2.py $D/v/base.py $D/v/ef.py $D/v/el.py > "$OUT/ncu8.csv" 2> "$OUT/ncu8.err"
tail -5 "$OUT/ncu8.err"; grep -c dram__bytes_read "$OUT/ncu8.csv"
