#!/usr/bin/env bash
# Ninth device call (twenty-third session): b64 kv1024 with q_fill (tied in
# run 7 with the spec's 3-stage ring and evict_first) and its ring or L2
# policy changed (specs/h200-b64k1-qf-{nohint,s2,last}.yaml) against two
# copies of the build (c6f2d15), one process, 300 calls a file.
set -uo pipefail
R=perf/run-2026-12-01-twentythird
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=64x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 100 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound9.json" $V/base_a.py $V/base_b.py \
  $V/qf_nohint.py $V/qf_s2.py $V/qf_last.py 2>&1 | tee "$OUT/bound9.log" | tail -2
