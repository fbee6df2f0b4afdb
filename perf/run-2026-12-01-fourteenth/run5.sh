#!/usr/bin/env bash
# Fifth device call (fourteenth session): the launch floor of the benchmark's timing (launch_floor.py).
set -uo pipefail
D=perf/run-2026-12-01-fourteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 150 python3 $D/launch_floor.py "$OUT/floor5.json" 2>&1 | tail -12 | tee "$OUT/floor5.log"
