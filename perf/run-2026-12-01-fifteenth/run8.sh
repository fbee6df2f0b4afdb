#!/usr/bin/env bash
# Eighth device call (fifteenth session): b64 kv1024 with claim_tiles, or with
# late_fill, now that both rings' first tiles go out first (d0591af), against two
# copies of build/h200 at d0591af: outputs (cmp.py), then one process (dirty
# L2, 300 calls a file, shuffled).
set -uo pipefail
D=perf/run-2026-12-01-fifteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
CMP_SHAPES=64x1024 timeout 120 python3 $D/cmp.py "$OUT/cmp8.json" $D/v/base_a.py $D/v/b64claim.py $D/v/b64late.py 2>&1 | tail -1 | tee "$OUT/cmp8.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=64x1024 BOUND_STATES=dirty BOUND_RUNS=400 timeout 150 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound8.json" \
  $D/v/base_a.py $D/v/b64claim.py $D/v/b64late.py $D/v/base_b.py 2>&1 | tail -1 | tee "$OUT/bound8.log"
