#!/usr/bin/env bash
# Third device call (sixteenth session): the record of eb0eeae (gen check of
# specs/h200.yaml, gen bench with both baselines against the fifteenth
# session's record, leaderboard mode), then v_lookahead on b32 kv8192 and b64
# kv1024 (specs/h200-ahead2.yaml; b64 kv1024's kernel spills 2 registers with
# it): gen check of b64 kv1024, one process against the committed build (three
# copies each, dirty L2, 300 calls a file, shuffled).
set -uo pipefail
D=perf/run-2026-12-01-sixteenth
GEN_COMMIT=eb0eeae BENCH_COMPARE=perf/h200-2026-12-01-session15-final.json OUT=$OUT \
  timeout 330 scripts/device_run.sh "check bench bench-lb" > "$OUT/device_run.log" 2>&1
grep -E "geomean|passed|failed|b[0-9]+_kv[0-9]+ " "$OUT/device_run.log" | cut -c1-200 | tail -40
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 90 python3 -m generator.cli check --spec $D/specs/h200-ahead2.yaml --shapes b64_kv1024 > "$OUT/check3.log" 2>&1
grep -E "^│ [a-z]" "$OUT/check3.log" | cut -c1-150
BOUND_SHUFFLE=1 BOUND_SHAPES=32x8192,64x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 150 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound3.json" \
  $D/v/base_a.py $D/v/ahead2_a.py $D/v/base_b.py $D/v/ahead2_b.py $D/v/base_c.py $D/v/ahead2_c.py 2>&1 | tail -3 | tee "$OUT/bound3.log"
