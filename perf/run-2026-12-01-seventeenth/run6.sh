#!/usr/bin/env bash
# Sixth device call (seventeenth session): what the in-loop ring refill costs
# the four-tile shapes' chain. specs/h200-s4.yaml (b4 kv8192 and b32 kv1024
# with a 4-stage ring: every tile requested by the prologue, the refill in
# the loop always predicated off) and the same build with the refill call
# removed from kernels of 4 stages (s4nr: 3 CTA barriers a tile fewer, sm90
# loop 763 -> 734 instructions; outputs unchanged, since a 4-stage ring of a
# 4-tile split never refills), against 43d2254's build; one process, two
# copies each, dirty L2, 300 calls, shuffled. (Run 5 was the record.)
set -uo pipefail
R=perf/run-2026-12-01-seventeenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=4x8192,32x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound6.json" \
  $R/v/base_a.py $R/v/s4_a.py $R/v/s4nr_a.py $R/v/base_b.py $R/v/s4_b.py $R/v/s4nr_b.py 2>&1 | grep -E "^b[0-9]|Error|error" | tee "$OUT/bound6.log"
CMP_SHAPES=4x8192,32x1024 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp6.json" $R/v/base_a.py $R/v/s4nr_a.py 2>&1 | tail -3
