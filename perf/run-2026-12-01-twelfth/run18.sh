#!/usr/bin/env bash
# Eighteenth device call (twelfth session): the eleventh session's claim_tiles verdict again,
# with a shuffled order (item 5: its runs 6 and 7 used fixed orders of six files). v/ (not
# kept): claim = build/h200 at a8953ed, noclaim = specs/h200-noclaim.yaml's build. Three
# copies each, 300 calls, dirty L2, BOUND_SHUFFLE=1.
set -uo pipefail
D=perf/run-2026-12-01-twelfth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=32x8192,64x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 250 python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound18.json" \
  $D/v/claim_a.py $D/v/noclaim_a.py $D/v/claim_b.py $D/v/noclaim_b.py $D/v/claim_c.py $D/v/noclaim_c.py 2>&1 | tee "$OUT/bound18.log"
