#!/usr/bin/env bash
# Third device call (eleventh session): the consumers-2 prologue issues the two rings' first
# tiles in the split's order (0, 1, 2, 3: the second warpgroup's first tile lands second)
# instead of ring by ring (0, 2, 1, 3). The v/ files are not kept: v/old_*.py: build/h200 at
# a2ca86f; v/new_*.py: specs/h200.yaml built with fill-order.patch applied. The timeline is of
# the patched build. same.py (bit for bit on every shape, even and uneven), gen check of
# the three consumers-2 shapes, one process order-balanced (old, new, new, old, old, new),
# then gen timeline of the three shapes.
set -uo pipefail
D=perf/run-2026-12-01-eleventh
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
S="--shapes b32_kv8192 --shapes b64_kv1024 --shapes b64_kv8192"
python3 perf/run-2026-12-01-timeline/same.py $D/v/old_a.py $D/v/new_a.py > "$OUT/same3.log" 2>&1; echo "same rc $?"
grep -c "new_a: same" "$OUT/same3.log"
python3 -m generator.cli check --spec specs/h200.yaml $S --json "$OUT/check3.json" > "$OUT/check3.log" 2>&1; echo "check rc $?"; grep -c "│ pass" "$OUT/check3.log"
BOUND_SHAPES=32x8192,64x1024,64x8192 BOUND_STATES=dirty BOUND_RUNS=300 python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound3.json" \
  $D/v/old_a.py $D/v/new_a.py $D/v/new_b.py $D/v/old_b.py $D/v/old_c.py $D/v/new_c.py 2>&1 | tee "$OUT/bound3.log"
python3 -m generator.cli timeline --spec specs/h200.yaml $S --json "$OUT/timeline3.json" > "$OUT/timeline3.log" 2>&1
grep -E "programs|  (3|4|8|9) " "$OUT/timeline3.log" | cut -c1-110
