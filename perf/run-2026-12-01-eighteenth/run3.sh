#!/usr/bin/env bash
# Third device call (eighteenth session): deeper rings. Run 2's timeline put
# b64 kv1024's tile loop at the rate of one tile in flight an SM (about 3.3
# TB/s), so: a 3-stage ring on the one-warpgroup shapes (h200-s3.yaml), and
# consumer_split dims (one ring for the program's two warpgroups, so the
# ring may be deeper) with 4 stages (h200-dims4.yaml) or 3 (h200-dims3-3.yaml)
# on b4 kv8192, b32 kv1024, b64 kv1024 and, without claim_tiles, b32 kv8192
# and b64 kv8192; against e3c3728's build, one process, dirty L2, 300 calls,
# shuffled; then gen check of each variant on its changed shapes.
set -uo pipefail
R=perf/run-2026-12-01-eighteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=4x8192,32x1024,64x1024,32x8192,64x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 300 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound3.json" \
  $R/v/base_a.py $R/v/s3.py $R/v/dims4.py $R/v/dims3.py $R/v/base_b.py 2>&1 | grep -E "^b[0-9]|Error|error|Timeout" | tee "$OUT/bound3.log"
for v in s3 dims4 dims3-3; do
  if [ $v = s3 ]; then sh="--shapes b4_kv8192 --shapes b32_kv1024 --shapes b64_kv1024"; else
    sh="--shapes b4_kv8192 --shapes b32_kv1024 --shapes b64_kv1024 --shapes b32_kv8192 --shapes b64_kv8192"; fi
  timeout 150 python3 -m generator.cli check --spec $R/specs/h200-$v.yaml $sh --json "$OUT/check3-$v.json" > "$OUT/check3-$v.log" 2>&1
  echo "check $v rc $?"; grep -cE "^│ [a-z].*pass" "$OUT/check3-$v.log"; grep -E "^│ [a-z]" "$OUT/check3-$v.log" | grep -v pass | head -5
done
