#!/usr/bin/env bash
# Seventeenth device call (twelfth session): runs 11-12's two V buffers (vb2) on b4 kv8192 and
# b32 kv1024 again, with the files in a new seeded order every round (BOUND_SHUFFLE=1: runs
# 15-16 found every fourth timed call about 1 us slower, which a fixed order of six files
# aliases). v/ (not kept): base = build/h200 at 43d4e8f, vb2 = specs/h200-vb2.yaml's build.
set -uo pipefail
D=perf/run-2026-12-01-twelfth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=4x8192,32x1024 BOUND_STATES=dirty BOUND_RUNS=400 timeout 300 python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound17.json" \
  $D/v/base_a.py $D/v/vb2_a.py $D/v/base_b.py $D/v/vb2_b.py $D/v/base_c.py $D/v/vb2_c.py 2>&1 | tee "$OUT/bound17.log"
