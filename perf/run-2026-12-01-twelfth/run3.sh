#!/usr/bin/env bash
# Third device call (twelfth session): where one consumer chain waits on the small and a
# large split shape: ncu source counters (stall reasons per SASS instruction, caches
# flushed between passes: a clean L2) of the committed build's b4 kv8192 and b32 kv8192
# kernels, and gen timeline of the committed spec.
set -uo pipefail
OUT=${OUT:-out}
SHAPES="4 8192 run_b4_kv8192 mla_b4_kv8192;32 8192 run_b32_kv8192 mla_b32_kv8192" bash scripts/ncu_source.sh > /dev/null 2>&1
ls $OUT
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 150 python3 -m generator.cli timeline --spec specs/h200.yaml --json "$OUT/timeline3.json" > "$OUT/timeline3.log" 2>&1
echo "timeline rc $?"
