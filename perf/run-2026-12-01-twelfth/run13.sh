#!/usr/bin/env bash
# Thirteenth device call (twelfth session): b4 kv8192 and b32 kv1024 at twice the splits (64 and
# 8) with V from registers, so that two programs (two chains of two tiles) share each SM
# (specs/h200-twoper.yaml; the first gen tune tried these before the barrier merge and
# late_fill). v/ (not kept): base = build/h200 at 86914ef. One process, dirty L2, 300 calls a
# copy, order base two two base base two; then gen check of the variant on those shapes.
set -uo pipefail
D=perf/run-2026-12-01-twelfth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHAPES=4x8192,32x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 300 python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound13.json" \
  $D/v/base_a.py $D/v/two_a.py $D/v/two_b.py $D/v/base_b.py $D/v/base_c.py $D/v/two_c.py 2>&1 | tee "$OUT/bound13.log"
timeout 120 python3 -m generator.cli check --spec $D/specs/h200-twoper.yaml --shapes b4_kv8192 --shapes b32_kv1024 --json "$OUT/check13.json" > "$OUT/check13.log" 2>&1
echo "check rc $?"; grep -c "│ pass" "$OUT/check13.log"
