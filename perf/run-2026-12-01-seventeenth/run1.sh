#!/usr/bin/env bash
# First device call (seventeenth session): two consumer warpgroups on the
# four-tile shapes (b4 kv8192, b32 kv1024: 128 programs, each warpgroup two of
# the program's four tiles), with V from registers: without v_lookahead (c2,
# 8 warps, 255 registers, no spill; with it 2 spilled), with run-time claims
# (c2claim: 12 warps, 168 registers) and with claims and v_lookahead
# (c2claimla, also b64 kv1024 as consumers 2 + claims + v_lookahead), against
# three copies of the committed build (ba48fb3): gen check of the changed
# shapes, then one process (two copies a variant, dirty L2, 300 calls,
# shuffled).
set -uo pipefail
R=perf/run-2026-12-01-seventeenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
BOUND_SHUFFLE=1 BOUND_SHAPES=4x8192,32x1024,64x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound1.json" \
  $R/v/base_a.py $R/v/c2_a.py $R/v/c2claim_a.py $R/v/c2claimla_a.py $R/v/base_b.py \
  $R/v/c2_b.py $R/v/c2claim_b.py $R/v/c2claimla_b.py $R/v/base_c.py 2>&1 | grep -E "^b[0-9]" | tee "$OUT/bound1.log"
for v in c2 c2claim c2claimla; do
  shapes=b4_kv8192,b32_kv1024; [ $v = c2claimla ] && shapes=$shapes,b64_kv1024
  timeout 90 python3 -m generator.cli check --spec $R/specs/h200-$v.yaml --shapes $shapes > "$OUT/check1-$v.log" 2>&1
  echo "check $v:"; grep -E "^│ [a-z]" "$OUT/check1-$v.log" | cut -c1-160
done
