#!/usr/bin/env bash
# Sixth device call (eleventh session): claim_tiles (a producer warp per ring claims the row's
# next tile at run time) on the three consumers-2 shapes. v/ (not kept): old_*.py = build/h200 at
# 79730ea; new.py = specs/h200.yaml built with this template (claim_tiles off: must give the
# old build's outputs bit for bit); claim_*.py = the build of perf/specs/h200-claim-tiles.yaml.
# gen check of the claim spec's three shapes first (a hang would show as a timeout), then
# same.py, then one process order-balanced (old, claim, claim, old, old, claim), then its timeline.
set -uo pipefail
D=perf/run-2026-12-01-eleventh
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
S="--shapes b32_kv8192 --shapes b64_kv1024 --shapes b64_kv8192"
timeout 300 python3 -m generator.cli check --spec perf/specs/h200-claim-tiles.yaml $S --json "$OUT/check6.json" > "$OUT/check6.log" 2>&1; rc=$?
echo "check rc $rc"; grep -c "│ pass" "$OUT/check6.log"; tail -5 "$OUT/check6.log" | cut -c1-200
[ $rc -eq 0 ] || exit 1
timeout 200 python3 perf/run-2026-12-01-timeline/same.py $D/v/old_a.py $D/v/new.py $D/v/claim_a.py > "$OUT/same6.log" 2>&1; echo "same rc $?"
grep -c "new: same" "$OUT/same6.log"; grep "claim_a" "$OUT/same6.log" | head -16
BOUND_SHAPES=32x8192,64x1024,64x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 300 python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound6.json" \
  $D/v/old_a.py $D/v/claim_a.py $D/v/claim_b.py $D/v/old_b.py $D/v/old_c.py $D/v/claim_c.py 2>&1 | tee "$OUT/bound6.log"
timeout 200 python3 -m generator.cli timeline --spec perf/specs/h200-claim-tiles.yaml $S --json "$OUT/timeline6.json" > "$OUT/timeline6.log" 2>&1
grep -E "programs|  (3|4|8|9|13|6|7) " "$OUT/timeline6.log" | cut -c1-110
