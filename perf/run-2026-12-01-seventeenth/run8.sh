#!/usr/bin/env bash
# Eighth device call (seventeenth session): the ring refill moved under the
# next tile's score wgmmas (rings of two or more stages: the copies and the
# CTA barriers Triton puts around them issue while the score wgmmas of the
# other slot run; the barrier before the next tile's wait goes) in the
# one-warpgroup loop, against 646d6d3's build; one process, two copies each,
# dirty L2, 300 calls, shuffled, on the shapes whose kernels changed; then
# gen check of specs/h200.yaml with the changed template.
set -uo pipefail
R=perf/run-2026-12-01-seventeenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=4x8192,32x1024,64x1024,256x1024,256x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 300 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound8.json" \
  $R/v/base_a.py $R/v/reord_a.py $R/v/base_b.py $R/v/reord_b.py 2>&1 | grep -E "^b[0-9]|Error|error" | tee "$OUT/bound8.log"
timeout 250 python3 -m generator.cli check --spec specs/h200.yaml --json "$OUT/check8.json" > "$OUT/check8.log" 2>&1
echo "check rc $?"; grep -cE "^│ [a-z].*pass" "$OUT/check8.log"; grep -E "^│ [a-z]" "$OUT/check8.log" | grep -v pass | head
