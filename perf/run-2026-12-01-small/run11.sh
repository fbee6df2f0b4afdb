#!/usr/bin/env bash
# Eleventh device call: fp16 partials on b4 kv1024 and b32 kv1024 with the new merge
# (perf/specs/h200-partials16-small.yaml against specs/h200.yaml at 74a40cd), gen check
# of the variant on those shapes, then order-balanced (fp32, fp16, fp16, fp32) timing.
set -uo pipefail
D=perf/run-2026-12-01-small
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
python3 -m generator.cli check --spec perf/specs/h200-partials16-small.yaml --shapes b4_kv1024 --shapes b32_kv1024 \
  --json "$OUT/check11.json" > "$OUT/check11.log" 2>&1; echo "check rc $?"
BOUND_SHAPES=4x1024,32x1024 BOUND_STATES=dirty python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound11.json" \
  $D/v/fp32_a.py $D/v/fp16_a.py $D/v/fp16_b.py $D/v/fp32_b.py 2>&1 | tee "$OUT/bound11.log"
