#!/usr/bin/env bash
# Fifth device call (eleventh session): what would a tile claimed at run time cost the consumer
# that claims it? v/claim_*.py (not kept): build/h200/submission.py at 661f19a with
# claim-probe.patch applied: before each ring refill the consumer does a scalar atomic add of 0
# on its row's barrier counter (the value unchanged; compiled for sm90 as the atomic, a shared
# store, a bar.sync, a shared load) and the refill's row depends on the result, as a claimed
# tile's would. Timing only. v/old_*.py: the build itself. One process, order-balanced
# (old, claim, claim, old, old, claim), the split shapes but b4 kv1024 (one tile a program).
set -uo pipefail
D=perf/run-2026-12-01-eleventh
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHAPES=4x8192,32x1024,32x8192,64x1024,64x8192 BOUND_STATES=dirty BOUND_RUNS=300 python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound5.json" \
  $D/v/old_a.py $D/v/claim_a.py $D/v/claim_b.py $D/v/old_b.py $D/v/old_c.py $D/v/claim_c.py 2>&1 | tee "$OUT/bound5.log"
