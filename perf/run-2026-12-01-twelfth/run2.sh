#!/usr/bin/env bash
# Second device call (twelfth session): is the consumer bound by its wgmma instruction count?
# pv_fp8 with P's two terms side by side in N (16 fp8 wgmmas of N 32 a tile for PV) against
# pv_fp8 as run 1 had it (32 of N 16), the committed build, and one consumer with V from
# registers (c1: perf/specs/h200-pv8.yaml without pv_fp8). One process, dirty L2, 200 calls.
# v/ (not kept): old_* = build/h200 at 5e0d3d1, new_* = run 1's pv_fp8 build, n32_* = this one.
set -uo pipefail
D=perf/run-2026-12-01-twelfth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHAPES=4x8192,32x1024,64x8192 BOUND_STATES=dirty BOUND_RUNS=200 timeout 240 python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound2.json" \
  $D/v/old_a.py $D/v/n32_a.py $D/v/new_a.py $D/v/c1.py $D/v/n32_b.py $D/v/old_b.py 2>&1 | tee "$OUT/bound2.log"
timeout 150 python3 -m generator.cli check --spec perf/specs/h200-pv8.yaml --shapes b4_kv8192 --shapes b64_kv8192 --json "$OUT/check2.json" > "$OUT/check2.log" 2>&1
echo "check rc $?"; grep -c "│ pass" "$OUT/check2.log"; grep -o '"rel_err": [0-9.e-]*' "$OUT/check2.json" | sort | tail -2
