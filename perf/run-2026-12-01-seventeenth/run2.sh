#!/usr/bin/env bash
# Second device call (seventeenth session): what the softmax's cross-warp max
# costs a tile. Timing only (outputs wrong on purpose): the committed build
# (ba48fb3) with the tile max replaced by zeros (nomax: no cross-warp
# reduction, the rescale still done; sm90 loop 769 -> ~700 instructions) and
# also without the rescale (nores: 627 instructions, 4 CTA barriers a tile
# against 6, no SHFL). Two copies each, all eight shapes, dirty L2, 300 calls,
# shuffled, one process.
set -uo pipefail
R=perf/run-2026-12-01-seventeenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_STATES=dirty BOUND_RUNS=300 timeout 500 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound2.json" \
  $R/v/base_a.py $R/v/nomax_a.py $R/v/nores_a.py $R/v/base_b.py $R/v/nomax_b.py $R/v/nores_b.py 2>&1 | grep -E "^b[0-9]|Error|error" | tee "$OUT/bound2.log"
