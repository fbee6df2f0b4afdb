#!/usr/bin/env bash
# Ninth device call (fifteenth session): b64 kv1024 with late_fill again (run 8:
# 22.14 us against 22.46 / 22.62), two copies of each file, 400 calls, shuffled;
# gen check of specs/h200-b64late.yaml on the shape.
set -uo pipefail
D=perf/run-2026-12-01-fifteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=64x1024 BOUND_STATES=dirty BOUND_RUNS=400 timeout 150 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound9.json" \
  $D/v/base_a.py $D/v/b64late.py $D/v/base_b.py $D/v/b64late_2.py 2>&1 | tail -1 | tee "$OUT/bound9.log"
timeout 150 python3 -m generator.cli check --spec $D/specs/h200-b64late.yaml --shapes b64_kv1024 > "$OUT/check9.log" 2>&1
grep -E "^│ [a-z]" "$OUT/check9.log" | cut -c1-140
