#!/usr/bin/env bash
# Third device call (twenty-fifth session): the PV product as fp8 wgmmas
# (pv_fp8, specs/h200-pv8.yaml: on for every V-from-registers entry, with
# v_row_pairs and v_row_swap off as it requires) against the build
# (c4221ff), V's operand now through transposed 16-bit matrix loads (ldmatrix
# .trans, one byte permute a register; pv8m): gen check's strict errors of
# the variant spec, then one-process timing against two copies of the build
# and run 2's file (pv8: 16-byte loads, two byte permutes a register),
# and pv8m with v_lookahead off (specs/h200-pv8-nolook.yaml).
set -uo pipefail
R=perf/run-2026-12-02-twentyfifth
V=$R/v
S=4x8192,32x1024,32x8192,64x1024,64x8192,256x1024,256x8192
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run3.txt"
timeout 200 python3 -m generator.cli check --spec $R/specs/h200-pv8.yaml --shapes b4_kv8192 --shapes b32_kv1024 \
  --shapes b32_kv8192 --shapes b64_kv1024 --shapes b64_kv8192 --shapes b256_kv1024 --shapes b256_kv8192 \
  --json "$OUT/check3.json" > "$OUT/check3.log" 2>&1
tail -40 "$OUT/check3.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=$S BOUND_STATES=dirty BOUND_RUNS=300 timeout 330 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound3.json" $V/base_a.py $V/base_b.py $V/pv8_a.py $V/pv8m_a.py $V/pv8m_b.py $V/pv8m_nolook.py \
  2>&1 | tee "$OUT/bound3.log" | tail -9
