#!/usr/bin/env bash
# Eleventh device call (twenty-first session): b4 kv8192 on a 4-stage ring
# (specs/h200-b4k8-s4.yaml: every tile of a program requested at its start)
# against the committed 3-stage ring (6a557ea), three copies each, one
# process, 400 calls a file.
set -uo pipefail
R=perf/run-2026-12-01-twentyfirst
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=4x8192 BOUND_STATES=dirty BOUND_RUNS=400 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound11.json" $V/base_a.py $V/base_b.py $V/base_c.py \
  $V/s4_a.py $V/s4_b.py $V/s4_c.py 2>&1 | tee "$OUT/bound11.log" | tail -1
