#!/usr/bin/env bash
# Seventh device call (twenty-second session): run 6 again (mkvar.py
# rowpairs against the build), three copies each, 400 calls a file.
set -uo pipefail
R=perf/run-2026-12-01-twentysecond
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_STATES=dirty BOUND_RUNS=400 timeout 500 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound7.json" $V/base_a.py $V/base_b.py $V/base_c.py \
  $V/rowpairs_a.py $V/rowpairs_b.py $V/rowpairs_c.py 2>&1 | tee "$OUT/bound7.log" | tail -8
