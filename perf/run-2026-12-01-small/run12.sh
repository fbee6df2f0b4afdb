#!/usr/bin/env bash
# Twelfth device call: b4 kv1024's 16 splits each run by two programs that split V's 512
# output dims (GL_DV_SPLIT, dv-split.patch on 3ddb469's template; the runner's grid made
# (4, 32) by hand): each program converts and multiplies one V half, stores half the
# partial and merges 16 of the 512 dims. Outputs must be the committed build's, bit for bit.
set -uo pipefail
D=perf/run-2026-12-01-small
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
python3 perf/run-2026-12-01-timeline/same.py build/h200/submission.py $D/v/base_a.py $D/v/dv.py > "$OUT/same12.log" 2>&1; echo "same rc $?"
grep "b4_kv1024" "$OUT/same12.log"
BOUND_SHAPES=4x1024 BOUND_STATES=dirty python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound12.json" \
  $D/v/base_a.py $D/v/dv.py $D/v/base_b.py $D/v/dv_b.py 2>&1 | tee "$OUT/bound12.log"
