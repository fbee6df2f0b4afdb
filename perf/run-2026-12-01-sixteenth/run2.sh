#!/usr/bin/env bash
# Second device call (sixteenth session): v_lookahead (the spec field built
# from run 1's vprefetch) in specs/h200-ahead.yaml (b4 kv8192 with V from
# registers and v_lookahead, b32 kv8192 and b64 kv8192 with v_lookahead):
# gen check of the three shapes, then one process against the committed
# build (three copies each, dirty L2, 300 calls a file, shuffled).
set -uo pipefail
D=perf/run-2026-12-01-sixteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
S="--shapes b4_kv8192 --shapes b32_kv8192 --shapes b64_kv8192"
timeout 200 python3 -m generator.cli check --spec $D/specs/h200-ahead.yaml $S > "$OUT/check2.log" 2>&1
grep -E "^│ [a-z]|passed|failed" "$OUT/check2.log" | cut -c1-160 | tail -20
BOUND_SHUFFLE=1 BOUND_SHAPES=4x8192,32x8192,64x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 280 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound2.json" \
  $D/v/base_a.py $D/v/ahead_a.py $D/v/base_b.py $D/v/ahead_b.py $D/v/base_c.py $D/v/ahead_c.py 2>&1 | tail -4 | tee "$OUT/bound2.log"
