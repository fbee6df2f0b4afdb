#!/usr/bin/env bash
# Fifth device call (sixteenth session): specs/h200-ahead4.yaml against
# a1c6d27's build: b4 kv8192 with prefetch_v on top of v_lookahead (255
# registers, no spill), b32 kv1024 with V from registers, v_lookahead and
# fp16 partials (242 registers). gen check of the two shapes, then one
# process (three copies each, dirty L2, 300 calls a file, shuffled).
set -uo pipefail
D=perf/run-2026-12-01-sixteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 120 python3 -m generator.cli check --spec $D/specs/h200-ahead4.yaml --shapes b4_kv8192 --shapes b32_kv1024 > "$OUT/check5.log" 2>&1
grep -E "^│ [a-z]" "$OUT/check5.log" | cut -c1-150
BOUND_SHUFFLE=1 BOUND_SHAPES=4x8192,32x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 150 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound5.json" \
  $D/v/base_a.py $D/v/ahead4_a.py $D/v/base_b.py $D/v/ahead4_b.py $D/v/base_c.py $D/v/ahead4_c.py 2>&1 | tail -3 | tee "$OUT/bound5.log"
