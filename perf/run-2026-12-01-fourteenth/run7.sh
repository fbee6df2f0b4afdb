#!/usr/bin/env bash
# Seventh device call (fourteenth session): issue 9's bound at this commit. One process, dirty L2, 150
# calls a file, shuffled: build/h200 at 45b2014 (fp8.py), the same with every tile read from the first
# 16,384 rows (fp8_none.py: L2-resident, the consumer alone; outputs wrong, timing only), and the gluon
# MXFP4 build of perf/specs/h200-mxfp4-gluon-s3.yaml (mxfp4.py), all eight shapes.
set -uo pipefail
D=perf/run-2026-12-01-fourteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_STATES=dirty BOUND_RUNS=150 timeout 500 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound7.json" $D/v/fp8.py $D/v/fp8_none.py $D/v/mxfp4.py 2>&1 \
  | tail -9 | tee "$OUT/bound7.log"
