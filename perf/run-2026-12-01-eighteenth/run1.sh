#!/usr/bin/env bash
# First device call (eighteenth session): consumer_split dims (two
# warpgroups per program, both taking every tile from one ring, each with
# half of the output dims; perf/run-2026-12-01-eighteenth/specs/h200-dims-b4k1.yaml:
# on b4 kv1024 (16 splits, 64 programs, V from registers), b4 kv8192, b32
# kv1024 and b64 kv1024) against e3c3728's build; one process, two copies
# each, dirty L2, 300 calls, shuffled; then gen check of the variant on
# those shapes.
set -uo pipefail
R=perf/run-2026-12-01-eighteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=4x1024,4x8192,32x1024,64x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 240 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound1.json" \
  $R/v/base_a.py $R/v/dims_a.py $R/v/base_b.py $R/v/dims_b.py 2>&1 | grep -E "^b[0-9]|Error|error|Timeout" | tee "$OUT/bound1.log"
timeout 250 python3 -m generator.cli check --spec $R/specs/h200-dims-b4k1.yaml --shapes b4_kv1024 --shapes b4_kv8192 \
  --shapes b32_kv1024 --shapes b64_kv1024 --json "$OUT/check1.json" > "$OUT/check1.log" 2>&1
echo "check rc $?"; grep -cE "^│ [a-z].*pass" "$OUT/check1.log"; grep -E "^│ [a-z]" "$OUT/check1.log" | grep -v pass | head; tail -5 "$OUT/check1.log"
