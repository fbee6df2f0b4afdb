#!/usr/bin/env bash
# Fourth device call (twenty-sixth session): b4 kv1024 on the register path
# with dv_split 2 (run 3's winner, dvregs) and its variants: v_lookahead,
# prefetch_v (the first group's V operands loaded under the score wgmmas),
# both, and 32 splits (256 programs, half-filled tiles). Outputs against
# dvregs, then one process, 400 calls a file, shuffled, L2 dirty.
set -uo pipefail
R=perf/run-2026-12-02-twentysixth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
CMP_SHAPES=4x1024 timeout 100 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp4.json" $V/dvregs.py $V/dvregs_look.py \
  $V/dvregs_pf.py $V/dvregs_pflook.py $V/dvregs_s32.py $V/base_a.py > "$OUT/cmp4.log" 2>&1
tail -1 "$OUT/cmp4.log" | cut -c1-900
BOUND_SHUFFLE=1 BOUND_SHAPES=4x1024 BOUND_STATES=dirty BOUND_RUNS=400 timeout 250 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound4.json" $V/base_a.py $V/base_b.py $V/dvregs.py $V/dvregs_b.py \
  $V/dvregs_look.py $V/dvregs_pf.py $V/dvregs_pflook.py $V/dvregs_s32.py 2>&1 | tee "$OUT/bound4.log" | tail -3
