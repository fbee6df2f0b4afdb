#!/usr/bin/env bash
# Eleventh device call (twelfth session): the four-tile shapes' chain (b4 kv8192, b32 kv1024:
# one warpgroup, V in two fp16 parts through one buffer, 1.8 us a tile). Variants of
# specs/h200.yaml on those two entries (specs/h200-{vb2,ov,vb2ov}.yaml): vb2 = two V buffers
# (part 1 converts under part 0's wgmma), ov = overlap_scores (the next tile's scores under
# part 0), vb2ov = both. v/ (not kept): base = build/h200 at 86914ef. Bit-identity, then one
# process, dirty L2, 300 calls a copy, order base vb2 ov vb2ov vb2ov ov vb2 base.
set -uo pipefail
D=perf/run-2026-12-01-twelfth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 150 python3 perf/run-2026-12-01-timeline/same.py $D/v/base_a.py $D/v/vb2_a.py $D/v/ov_a.py $D/v/vb2ov_a.py > "$OUT/same11.log" 2>&1; echo "same rc $?"; grep DIFFERS "$OUT/same11.log" | grep -v "b32_kv8192\|b64_kv8192" | head
BOUND_SHAPES=4x8192,32x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 300 python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound11.json" \
  $D/v/base_a.py $D/v/vb2_a.py $D/v/ov_a.py $D/v/vb2ov_a.py $D/v/vb2ov_b.py $D/v/ov_b.py $D/v/vb2_b.py $D/v/base_b.py 2>&1 | tee "$OUT/bound11.log"
