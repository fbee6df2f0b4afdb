#!/usr/bin/env bash
# Seventh device call (twenty-eighth session): where the SM's 1.1 us a tile
# goes on today's kernels (the last source-counter profile was the twelfth
# session's, before V from registers and fp8 PV): ncu source counters
# (stall reasons per SASS instruction; caches flushed between passes, a clean
# L2) of the build's b256 kv1024 (two programs an SM), b64 kv1024 (one, 8
# tiles) and b4 kv8192 (one, 4 tiles) kernels.
set -uo pipefail
OUT=${OUT:-out}
SHAPES="256 1024 run_b256_kv1024 mla_b256_kv1024;64 1024 run_b64_kv1024 mla_b64_kv1024;4 8192 run_b4_kv8192 mla_b4_kv8192" \
  bash scripts/ncu_source.sh > /dev/null 2>&1
ls -la $OUT
tail -5 $OUT/ncu.log
