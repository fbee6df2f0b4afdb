#!/usr/bin/env bash
# Seventh device call (eleventh session): claim_tiles as committed (b32 kv8192 and b64 kv8192),
# a second one-process comparison in the other order (new, old, old, new, new, old), b64 kv1024
# (unchanged kernel) as the control; then gen check of the whole spec. v/ (not kept):
# old_*.py = build/h200 at 79730ea, new_*.py = build/h200 at this commit.
set -uo pipefail
D=perf/run-2026-12-01-eleventh
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHAPES=32x8192,64x1024,64x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 300 python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound7.json" \
  $D/v/new_a.py $D/v/old_a.py $D/v/old_b.py $D/v/new_b.py $D/v/new_c.py $D/v/old_c.py 2>&1 | tee "$OUT/bound7.log"
timeout 280 python3 -m generator.cli check --spec specs/h200.yaml --json "$OUT/check.json" > "$OUT/check.log" 2>&1
echo "check rc $?"; grep -c "│ pass" "$OUT/check.log"; grep -E "fail|error" "$OUT/check.log" | head -5
