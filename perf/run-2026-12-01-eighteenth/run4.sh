#!/usr/bin/env bash
# Fourth device call (eighteenth session): b64 kv1024's ring deeper again
# (run 3: 3 stages 0.2 us faster there, one copy): 3 stages (two copies), 4
# stages, 3 stages with late_fill, against two copies of e3c3728's build; one
# process, dirty L2, 400 calls, shuffled; gen check of the 4-stage and
# late_fill variants on the shape (the 3-stage one passed in run 3).
set -uo pipefail
R=perf/run-2026-12-01-eighteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=64x1024 BOUND_STATES=dirty BOUND_RUNS=400 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound4.json" \
  $R/v/base_a.py $R/v/b64s3.py $R/v/b64s4.py $R/v/b64s3lf.py $R/v/base_b.py $R/v/b64s3_b.py 2>&1 | grep -E "^b[0-9]|Error|error|Timeout" | tee "$OUT/bound4.log"
for v in b64s4 b64s3lf; do
  timeout 100 python3 -m generator.cli check --spec $R/specs/h200-$v.yaml --shapes b64_kv1024 --json "$OUT/check4-$v.json" > "$OUT/check4-$v.log" 2>&1
  echo "check $v rc $?"; grep -cE "^│ [a-z].*pass" "$OUT/check4-$v.log"
done
