#!/usr/bin/env bash
# Fourth device call (sixteenth session): b32 kv1024 with V from registers
# and v_lookahead (specs/h200-ahead3.yaml): gen check of the shape, one
# process against a1c6d27's build (three copies each, dirty L2, 300 calls a
# file, shuffled); then the record of a1c6d27 (gen check of specs/h200.yaml,
# gen bench with both baselines against eb0eeae's run, leaderboard mode).
set -uo pipefail
D=perf/run-2026-12-01-sixteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 90 python3 -m generator.cli check --spec $D/specs/h200-ahead3.yaml --shapes b32_kv1024 > "$OUT/check4.log" 2>&1
grep -E "^│ [a-z]" "$OUT/check4.log" | cut -c1-150
BOUND_SHUFFLE=1 BOUND_SHAPES=32x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 100 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound4.json" \
  $D/v/base_a.py $D/v/ahead3_a.py $D/v/base_b.py $D/v/ahead3_b.py $D/v/base_c.py $D/v/ahead3_c.py 2>&1 | tail -2 | tee "$OUT/bound4.log"
GEN_COMMIT=a1c6d27 BENCH_COMPARE=perf/h200-2026-12-01-session16-eb0eeae.json OUT=$OUT \
  timeout 330 scripts/device_run.sh "check bench bench-lb" > "$OUT/device_run.log" 2>&1
grep -E "geomean|b[0-9]+_kv[0-9]+ +│ gluon" "$OUT/device_run.log" | cut -c1-200 | tail -20
grep -c "│ pass" "$OUT/check.log"
