#!/usr/bin/env bash
# Fourth device call (twelfth session): the indptrs loaded before the ring's first tiles are
# requested (they were issued after them and waited behind them). Bit-identity against the
# committed build (same.py; the claim_tiles shapes differ by which consumer took which tile),
# one process old/new/new/old on all eight shapes (dirty L2, 200 calls a copy), then gen
# timeline of the new build. v/ (not kept): old_* = build/h200 at 5e0d3d1, new_* = the
# build of specs/h200.yaml with the change.
set -uo pipefail
D=perf/run-2026-12-01-twelfth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 120 python3 perf/run-2026-12-01-timeline/same.py $D/v/old_a.py $D/v/new_a.py > "$OUT/same4.log" 2>&1; echo "same rc $?"; tail -20 "$OUT/same4.log"
BOUND_STATES=dirty BOUND_RUNS=200 timeout 300 python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound4.json" \
  $D/v/old_a.py $D/v/new_a.py $D/v/new_b.py $D/v/old_b.py 2>&1 | tee "$OUT/bound4.log"
timeout 150 python3 -m generator.cli timeline --spec specs/h200.yaml --json "$OUT/timeline4.json" > "$OUT/timeline4.log" 2>&1
echo "timeline rc $?"
