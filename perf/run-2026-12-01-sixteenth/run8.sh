#!/usr/bin/env bash
# Eighth device call (sixteenth session): run 7's one-consumer b64 kv1024 at
# 2 splits again (specs/h200-b64c1s2.yaml), and without late_fill
# (h200-b64c1s2nolf.yaml), against the committed build: gen check of the
# latter, one process (three copies each, dirty L2, 300 calls, shuffled).
set -uo pipefail
D=perf/run-2026-12-01-sixteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 80 python3 -m generator.cli check --spec $D/specs/h200-b64c1s2nolf.yaml --shapes b64_kv1024 > "$OUT/check8.log" 2>&1
grep -E "^│ [a-z]" "$OUT/check8.log" | cut -c1-150
BOUND_SHUFFLE=1 BOUND_SHAPES=64x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 150 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound8.json" \
  $D/v/base_a.py $D/v/c1s2_a.py $D/v/c1s2nolf_a.py $D/v/base_b.py $D/v/c1s2_b.py $D/v/c1s2nolf_b.py \
  $D/v/base_c.py $D/v/c1s2_c.py $D/v/c1s2nolf_c.py 2>&1 | tail -2 | tee "$OUT/bound8.log"
