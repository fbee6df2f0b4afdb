#!/usr/bin/env bash
# Second device call (fifteenth session): merge 'tagged' (specs/h200-tagged.yaml:
# the six split shapes' barrier merge without an arrival, partials fp32 tagged
# with the call) against two copies of the build of specs/h200.yaml at the same
# template: gen check of the six split shapes, then one process, dirty L2, 300
# calls a file, shuffled; then gen timeline of two shapes, both specs.
set -uo pipefail
D=perf/run-2026-12-01-fifteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
S="--shapes b4_kv1024 --shapes b4_kv8192 --shapes b32_kv1024 --shapes b32_kv8192 --shapes b64_kv1024 --shapes b64_kv8192"
timeout 200 python3 -m generator.cli check --spec $D/specs/h200-tagged.yaml $S --json "$OUT/check2.json" 2>&1 | tail -40 > "$OUT/check2.log"
tail -5 "$OUT/check2.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=4x1024,4x8192,32x1024,32x8192,64x1024,64x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound2.json" \
  $D/v/base_a.py $D/v/tagged.py $D/v/base_b.py 2>&1 | tail -6 | tee "$OUT/bound2.log"
for s in specs/h200.yaml $D/specs/h200-tagged.yaml; do
  timeout 90 python3 -m generator.cli timeline --spec $s --shapes b4_kv1024 --shapes b32_kv8192 2>&1 | tail -40 >> "$OUT/timeline2.log"
done
