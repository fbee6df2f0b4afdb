#!/usr/bin/env bash
# Second device call: the memory floor of each shape's access pattern (stream.py:
# TMA ring, no compute) beside the committed build's calls, in one process.
set -uo pipefail
D=perf/run-2026-12-01-small
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
python3 $D/stream.py "$OUT/stream2.json" build/h200/submission.py 2>&1 | tee "$OUT/stream2.log"
