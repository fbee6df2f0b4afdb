#!/usr/bin/env bash
# Fourth device call (twenty-fifth session): pv_format fp8x2 (P as two e4m3
# terms, hi = e4m3(P) and lo = e4m3(P - hi), each multiplied by the same fp8
# V registers: fp16's wgmma count, about fp16's accuracy;
# specs/h200-pv8x2.yaml) against two copies of the build (c4221ff) and run
# 3's pv8m (pv_format fp8, P rounded once): gen check's strict errors of the
# fp8x2 spec, then one-process timing (300 calls a file, shuffled, L2 dirty).
set -uo pipefail
R=perf/run-2026-12-02-twentyfifth
V=$R/v
S=4x8192,32x1024,32x8192,64x1024,64x8192,256x1024,256x8192
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run4.txt"
timeout 200 python3 -m generator.cli check --spec $R/specs/h200-pv8x2.yaml --shapes b4_kv8192 --shapes b32_kv1024 \
  --shapes b32_kv8192 --shapes b64_kv1024 --shapes b64_kv8192 --shapes b256_kv1024 --shapes b256_kv8192 \
  --json "$OUT/check4.json" > "$OUT/check4.log" 2>&1
grep -E "passed|failed|FAIL" "$OUT/check4.log" | tail -5
BOUND_SHUFFLE=1 BOUND_SHAPES=$S BOUND_STATES=dirty BOUND_RUNS=300 timeout 330 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound4.json" $V/base_a.py $V/base_b.py $V/pv8m_a.py $V/pv8x2_a.py \
  $V/pv8x2_b.py 2>&1 | tee "$OUT/bound4.log" | tail -9
