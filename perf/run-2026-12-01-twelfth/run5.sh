#!/usr/bin/env bash
# Fifth device call (twelfth session): the indptrs loaded first in the warp-specialised
# (consumers 2) kernels only (run 4: in the one-warpgroup kernels the compiler then computed
# with them before the first tile's request, which waited for them; their SASS is now the
# committed one). One process on the three consumers-2 shapes, 300 calls a copy, dirty L2:
# old (build/h200 at 5e0d3d1), new (this template), and on b64 kv1024 claim_tiles (claim_*)
# and late_fill (lf_*), each elsewhere equal to new; order old new claim lf lf claim new old.
# Then gen check of the new spec's three shapes and of the claim_tiles b64 kv1024 variant.
set -uo pipefail
D=perf/run-2026-12-01-twelfth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHAPES=32x8192,64x1024,64x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 300 python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound5.json" \
  $D/v/old_a.py $D/v/new_a.py $D/v/claim_a.py $D/v/lf_a.py $D/v/lf_b.py $D/v/claim_b.py $D/v/new_b.py $D/v/old_b.py 2>&1 | tee "$OUT/bound5.log"
timeout 150 python3 -m generator.cli check --spec specs/h200.yaml --shapes b32_kv8192 --shapes b64_kv1024 --shapes b64_kv8192 --json "$OUT/check5.json" > "$OUT/check5.log" 2>&1
echo "check rc $?"; grep -c "│ pass" "$OUT/check5.log"
timeout 100 python3 -m generator.cli check --spec $D/specs/h200-claim64.yaml --shapes b64_kv1024 --json "$OUT/check5-claim64.json" > "$OUT/check5-claim64.log" 2>&1
echo "check claim64 rc $?"; grep -c "│ pass" "$OUT/check5-claim64.log"
