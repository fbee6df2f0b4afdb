#!/usr/bin/env bash
# Sixth device call (sixteenth session): b4 kv1024 with fp16 partials
# (specs/h200-b4p16.yaml) against the committed build, gen check of the
# shape, one process (three copies each, dirty L2, 300 calls, shuffled);
# then the record of the committed build (gen check of specs/h200.yaml, gen
# bench with both baselines against a1c6d27's run, leaderboard mode).
set -uo pipefail
D=perf/run-2026-12-01-sixteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 90 python3 -m generator.cli check --spec $D/specs/h200-b4p16.yaml --shapes b4_kv1024 > "$OUT/check6.log" 2>&1
grep -E "^│ [a-z]" "$OUT/check6.log" | cut -c1-150
BOUND_SHUFFLE=1 BOUND_SHAPES=4x1024,32x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 120 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound6.json" \
  $D/v/base_a.py $D/v/b4p16_a.py $D/v/base_b.py $D/v/b4p16_b.py $D/v/base_c.py $D/v/b4p16_c.py 2>&1 | tail -3 | tee "$OUT/bound6.log"
GEN_COMMIT=966ebf4 BENCH_COMPARE=perf/h200-2026-12-01-session16-final.json OUT=$OUT \
  timeout 330 scripts/device_run.sh "check bench bench-lb" > "$OUT/device_run.log" 2>&1
grep -E "geomean|^b[0-9]+_kv[0-9]+: " "$OUT/device_run.log" | cut -c1-200 | tail -20
grep -c "│ pass" "$OUT/check.log"
