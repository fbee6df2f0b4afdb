#!/usr/bin/env bash
# One device call: the bound experiment, then ncu on b256 kv1024 (fp8, fp8_none).
set -uo pipefail
D=perf/run-2026-12-01-bound
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv | tee "$OUT/gpu.txt"
python3 $D/bound.py "$OUT/bound.json" $D/fp8.py $D/fp8_half.py $D/fp8_none.py $D/mxfp4_s3.py 2>&1 | tee "$OUT/bound.log"
for v in fp8 fp8_none; do
  timeout 150 ncu --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section LaunchStats \
    -k "regex:mla_b256_kv1024" -s 4 -c 1 --csv python3 scripts/profile_runner.py $D/$v.py 256 1024 6 run_b256_kv1024 \
    > "$OUT/ncu_$v.csv" 2>&1
done
