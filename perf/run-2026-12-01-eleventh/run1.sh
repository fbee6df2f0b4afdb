#!/usr/bin/env bash
# First device call (eleventh session): dv_split 2 on the other small split shapes.
# v1 = perf/specs/h200-dvsplit-small.yaml (b4 kv8192, b32 kv1024, b64 kv1024 at two programs
# an SM, 256 programs, V in 4 parts), v2 = perf/specs/h200-dvsplit-small2.yaml (b4 kv8192 and
# b32 kv1024 with half the splits and dv_split 2: 128 programs of 8 tiles; b64 kv1024 with one
# consumer and 4 splits). gen check on both variant specs (the three shapes), then the
# committed build against both in one process, order-balanced (base, v1, v2, v2, v1, base).
# The v/ files are not kept: v/base_*.py is build/h200 at a2ca86f, v/v1_*.py and v/v2_*.py the
# builds of the two variant specs at a2ca86f.
set -uo pipefail
D=perf/run-2026-12-01-eleventh
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for s in h200-dvsplit-small h200-dvsplit-small2; do
  python3 -m generator.cli check --spec perf/specs/$s.yaml --shapes b4_kv8192 --shapes b32_kv1024 --shapes b64_kv1024 \
    --json "$OUT/check1-$s.json" > "$OUT/check1-$s.log" 2>&1; echo "check $s rc $?"; grep -c "│ pass" "$OUT/check1-$s.log"
done
BOUND_SHAPES=4x8192,32x1024,64x1024 BOUND_STATES=dirty BOUND_RUNS=300 python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound1.json" \
  $D/v/base_a.py $D/v/v1_a.py $D/v/v2_a.py $D/v/v2_b.py $D/v/v1_b.py $D/v/base_b.py 2>&1 | tee "$OUT/bound1.log"
