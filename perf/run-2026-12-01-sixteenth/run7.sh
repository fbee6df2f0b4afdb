#!/usr/bin/env bash
# Seventh device call (sixteenth session): b64 kv1024 with one consumer
# warpgroup, V from registers and v_lookahead (which spills on its
# consumers-2 kernel) at 4 splits (256 programs, two an SM:
# specs/h200-b64c1s4.yaml) and at 2 (128 programs: h200-b64c1s2.yaml),
# against the committed build (consumers 2): gen check of the shape for both,
# then one process (two copies each, dirty L2, 300 calls, shuffled).
set -uo pipefail
D=perf/run-2026-12-01-sixteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
for v in b64c1s4 b64c1s2; do
  timeout 80 python3 -m generator.cli check --spec $D/specs/h200-$v.yaml --shapes b64_kv1024 > "$OUT/check7-$v.log" 2>&1
  grep -E "^│ [a-z]" "$OUT/check7-$v.log" | cut -c1-150
done
BOUND_SHUFFLE=1 BOUND_SHAPES=64x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 120 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound7.json" \
  $D/v/base_a.py $D/v/c1s4_a.py $D/v/c1s2_a.py $D/v/base_b.py $D/v/c1s4_b.py $D/v/c1s2_b.py 2>&1 | tail -2 | tee "$OUT/bound7.log"
