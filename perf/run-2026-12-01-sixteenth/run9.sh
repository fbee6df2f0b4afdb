#!/usr/bin/env bash
# Ninth device call (sixteenth session, on the warm machine of run 8): run 8's
# files again in a new order, 400 calls a file.
D=perf/run-2026-12-01-sixteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD
BOUND_SHUFFLE=1 BOUND_SHAPES=64x1024 BOUND_STATES=dirty BOUND_RUNS=400 timeout 120 python3 perf/run-2026-12-01-bound/bound.py \
  "$OUT/bound9.json" $D/v/c1s2nolf_c.py $D/v/base_c.py $D/v/c1s2nolf_b.py $D/v/base_b.py $D/v/c1s2nolf_a.py $D/v/base_a.py \
  2>&1 | tail -2 | tee "$OUT/bound9.log"
