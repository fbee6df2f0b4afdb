#!/usr/bin/env bash
# Sixteenth device call (twelfth session): parity_probe.py again, with the medians by call
# index mod 4, and plain torch reads of 19 and 38 MiB timed the same way.
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 200 python3 perf/run-2026-12-01-twelfth/parity_probe.py build/h200/submission.py "$OUT/parity16.json" reads 2>&1 | tee "$OUT/parity16.log"
