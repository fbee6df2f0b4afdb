#!/usr/bin/env bash
# Sixth and seventh device calls (nineteenth session; RUN=6, then RUN=7
# SMEM_FILL=both): smem_launch.py, an empty kernel's
# call after the clear with 0-192 KiB of shared memory, 128 and 256 programs.
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
SMEM_RUNS=300 SMEM_FILL=${SMEM_FILL:-1} timeout 200 python3 perf/run-2026-12-01-nineteenth/smem_launch.py "$OUT/smem$RUN.json" 2>&1 | tail -26 | tee "$OUT/smem$RUN.log"
