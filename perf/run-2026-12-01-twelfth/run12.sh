#!/usr/bin/env bash
# Twelfth device call (twelfth session): run 11's vb2 (two fp16 V buffers on b4 kv8192 and
# b32 kv1024) again, three copies each, order vb2 base base vb2 vb2 base, 300 calls a copy,
# dirty L2; then gen check of the variant spec on those two shapes.
set -uo pipefail
D=perf/run-2026-12-01-twelfth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHAPES=4x8192,32x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 300 python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound12.json" \
  $D/v/vb2_a.py $D/v/base_a.py $D/v/base_b.py $D/v/vb2_b.py $D/v/vb2_c.py $D/v/base_c.py 2>&1 | tee "$OUT/bound12.log"
timeout 120 python3 -m generator.cli check --spec $D/specs/h200-vb2.yaml --shapes b4_kv8192 --shapes b32_kv1024 --json "$OUT/check12.json" > "$OUT/check12.log" 2>&1
echo "check rc $?"; grep -c "│ pass" "$OUT/check12.log"
