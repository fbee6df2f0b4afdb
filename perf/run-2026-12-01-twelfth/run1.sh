#!/usr/bin/env bash
# First device call (twelfth session): pv_fp8 (V transposed by a second warpgroup, fp8 PV
# wgmmas, P as two fp8 terms) on the five split shapes of perf/specs/h200-pv8.yaml:
# gen check of those shapes, then one process, old/new/new/old (bound.py, dirty L2,
# 200 calls a copy), then gen timeline of the variant. v/ (not kept): old_*.py =
# build/h200 at the session's start (5e0d3d1), new_*.py = the variant spec's build. The spec was
# perf/specs/h200-pv8.yaml then; it is kept in specs/ here, and its field (pv_fp8) in pv-fp8.patch.
set -uo pipefail
D=perf/run-2026-12-01-twelfth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
S="--shapes b4_kv8192 --shapes b32_kv1024 --shapes b32_kv8192 --shapes b64_kv1024 --shapes b64_kv8192"
timeout 200 python3 -m generator.cli check --spec perf/specs/h200-pv8.yaml $S --json "$OUT/check1.json" > "$OUT/check1.log" 2>&1
echo "check rc $?"; grep -c "│ pass" "$OUT/check1.log"; grep -iE "fail|error" "$OUT/check1.log" | head -8
BOUND_SHAPES=4x8192,32x1024,32x8192,64x1024,64x8192 BOUND_STATES=dirty BOUND_RUNS=200 timeout 240 python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound1.json" \
  $D/v/old_a.py $D/v/new_a.py $D/v/new_b.py $D/v/old_b.py 2>&1 | tee "$OUT/bound1.log"
timeout 120 python3 -m generator.cli timeline --spec perf/specs/h200-pv8.yaml $S --json "$OUT/timeline1.json" > "$OUT/timeline1.log" 2>&1
echo "timeline rc $?"
