#!/usr/bin/env bash
# Sixth device call (twelfth session): the b256 shapes' start. Their Q lands at 6.3 us, after
# their first tile (5.4): its loads queue behind the 18.9 MB of first tiles the 256 programs
# request at once. Variants (v/, not kept): lf = late_fill on both b256 shapes (half the first
# burst), qf = Q loaded and stored before the ring's first tiles are requested (a scratch
# template: the non-speculative path stores Q before _gl_fill_rings), qflf = both; base =
# build/h200 at 5e0d3d1. Outputs bit-identical (same.py), then one process, dirty L2, 200
# calls a copy, order base lf qf qflf qflf qf lf base.
set -uo pipefail
D=perf/run-2026-12-01-twelfth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 150 python3 perf/run-2026-12-01-timeline/same.py $D/v/base_a.py $D/v/lf_a.py $D/v/qf_a.py $D/v/qflf_a.py > "$OUT/same6.log" 2>&1; echo "same rc $?"; grep -c DIFFERS "$OUT/same6.log"
BOUND_SHAPES=256x1024,256x8192 BOUND_STATES=dirty BOUND_RUNS=200 timeout 300 python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound6.json" \
  $D/v/base_a.py $D/v/lf_a.py $D/v/qf_a.py $D/v/qflf_a.py $D/v/qflf_b.py $D/v/qf_b.py $D/v/lf_b.py $D/v/base_b.py 2>&1 | tee "$OUT/bound6.log"
