#!/usr/bin/env bash
# Third device call (twenty-sixth session): dv_split 2 on the register path
# (pv_format fp8; each program loads only its half's 4 chunks of V):
# specs/h200-dv2.yaml (b4 kv1024 from V through shared memory to V from
# registers at the same 128 programs; b4 kv8192, b32 kv1024, b64 kv1024 at
# twice the programs, two an SM). Outputs against the build, gen check of
# the four shapes, then one process, 300 calls a file, shuffled, L2 dirty.
set -uo pipefail
R=perf/run-2026-12-02-twentysixth
V=$R/v
S=4x1024,4x8192,32x1024,64x1024
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
CMP_SHAPES=$S timeout 120 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp3.json" $V/base_a.py $V/dv2_a.py \
  > "$OUT/cmp3.log" 2>&1
tail -4 "$OUT/cmp3.log" | cut -c1-400
timeout 200 python3 -m generator.cli check --spec $R/specs/h200-dv2.yaml --shapes b4_kv1024 --shapes b4_kv8192 \
  --shapes b32_kv1024 --shapes b64_kv1024 --json "$OUT/check3.json" > "$OUT/check3.log" 2>&1
tail -6 "$OUT/check3.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=$S BOUND_STATES=dirty BOUND_RUNS=300 timeout 250 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound3.json" $V/base_a.py $V/base_b.py $V/dv2_a.py $V/dv2_b.py \
  2>&1 | tee "$OUT/bound3.log" | tail -6
