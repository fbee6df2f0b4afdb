#!/usr/bin/env bash
# Second device call (eleventh session): fold merge on the consumers-2 shapes (each warpgroup
# stores its own partial and arrives at the row's barrier itself; the merge takes 2 x splits
# partials). The v/ files are not kept: v/old_*.py: build/h200 at a2ca86f; v/new_shared.py:
# specs/h200.yaml built with fold-merge.patch applied (fold shared: must give the old build's
# outputs bit for bit); v/fold_*.py: the build of h200-fold-merge.yaml (in this folder; it was
# perf/specs/h200-fold-merge.yaml while the patch was applied). gen check on the fold spec's three shapes, then one
# process, order-balanced (old, fold, fold, old, old, fold), then gen timeline of both specs.
set -uo pipefail
D=perf/run-2026-12-01-eleventh
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
S="--shapes b32_kv8192 --shapes b64_kv1024 --shapes b64_kv8192"
python3 perf/run-2026-12-01-timeline/same.py $D/v/old_a.py $D/v/new_shared.py $D/v/fold_a.py > "$OUT/same2.log" 2>&1; echo "same rc $?"
grep -c "new_shared: same" "$OUT/same2.log"; grep "fold_a" "$OUT/same2.log" | head -16
python3 -m generator.cli check --spec $D/h200-fold-merge.yaml $S --json "$OUT/check2.json" > "$OUT/check2.log" 2>&1; echo "check rc $?"; grep -c "│ pass" "$OUT/check2.log"
BOUND_SHAPES=32x8192,64x1024,64x8192 BOUND_STATES=dirty BOUND_RUNS=300 python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound2.json" \
  $D/v/old_a.py $D/v/fold_a.py $D/v/fold_b.py $D/v/old_b.py $D/v/old_c.py $D/v/fold_c.py 2>&1 | tee "$OUT/bound2.log"
python3 -m generator.cli timeline --spec $D/h200-fold-merge.yaml $S --json "$OUT/timeline2-fold.json" > "$OUT/timeline2-fold.log" 2>&1
python3 -m generator.cli timeline --spec specs/h200.yaml $S --json "$OUT/timeline2-base.json" > "$OUT/timeline2-base.log" 2>&1
tail -60 "$OUT/timeline2-fold.log" | cut -c1-110
