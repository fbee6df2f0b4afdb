#!/usr/bin/env bash
# Ninth device call: late_fill as a spec field (on for b4 kv8192, b32 kv1024, b64 kv1024):
# gen check, then old (7854368's build) against new, order-balanced, those three shapes.
set -uo pipefail
D=perf/run-2026-12-01-small
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
python3 -m generator.cli check --spec specs/h200.yaml --json "$OUT/check9.json" > "$OUT/check9.log" 2>&1; echo "check rc $?"
grep -c "│ pass" "$OUT/check9.log"
BOUND_SHAPES=4x8192,32x1024,64x1024 BOUND_STATES=dirty python3 perf/run-2026-12-01-bound/bound.py \
  "$OUT/bound9.json" $D/v/old_a.py $D/v/new_a.py $D/v/new_b.py $D/v/old_b.py 2>&1 | tee "$OUT/bound9.log"
