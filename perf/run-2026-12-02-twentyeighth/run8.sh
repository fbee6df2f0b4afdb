#!/usr/bin/env bash
# Eighth device call (twenty-eighth session): the b256 kernels ask L2 once, in
# the prologue, for the 2 or 4 tiles beyond their ring (mkpf.py: pf2, pf4),
# so that HBM keeps streaming between the first burst and the first refills
# (item 5: b256 kv1024's loop waits for tiles in half its samples). Outputs,
# then one process (300 calls a file, shuffled, L2 dirty).
set -uo pipefail
R=perf/run-2026-12-02-twentyeighth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run8.txt"
CMP_SHAPES=256x1024,256x8192 timeout 120 python3 perf/run-2026-12-01-fifteenth/cmp.py \
  "$OUT/cmp8.json" $V/base_a.py $V/pf2.py $V/pf4.py > "$OUT/cmp8.log" 2>&1
grep -o '"vs_first": \[[^]]*\]' "$OUT/cmp8.log" | sort | uniq -c
BOUND_SHUFFLE=1 BOUND_SHAPES=256x1024,256x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 300 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound8.json" $V/base_a.py $V/base_b.py $V/pf2.py $V/pf4.py \
  2>&1 | tee "$OUT/bound8.log" | tail -3
