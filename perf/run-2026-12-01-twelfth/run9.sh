#!/usr/bin/env bash
# Ninth device call (twelfth session): the epilogue's lines prefetched into L2 late in the
# loop (prefetch-late.patch: one thread's cp.async.bulk.prefetch.L2 of the program's partial,
# or its output row on the one-split shapes, GL_PF_AHEAD tiles before the loop's end; claim
# loops: once the row has 8 x GL_PF_AHEAD tiles left). The tenth session's prefetch at the
# start was slower everywhere; the stores' drain (about 1.8 us from the fold to the arrival)
# is the epilogue's largest piece. v/ (not kept): base = specs/h200.yaml built with this
# session's template (the consumers-2 indptrs first), pf2 / pf4 = the same with GL_PF_AHEAD 2 / 4. Bit-identity, then one
# process, dirty L2, 200 calls a copy, order base pf2 pf4 pf4 pf2 base.
set -uo pipefail
D=perf/run-2026-12-01-twelfth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 150 python3 perf/run-2026-12-01-timeline/same.py $D/v/base_a.py $D/v/pf2_a.py $D/v/pf4_a.py > "$OUT/same9.log" 2>&1; echo "same rc $?"; grep -c DIFFERS "$OUT/same9.log"
BOUND_STATES=dirty BOUND_RUNS=200 timeout 400 python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound9.json" \
  $D/v/base_a.py $D/v/pf2_a.py $D/v/pf4_a.py $D/v/pf4_b.py $D/v/pf2_b.py $D/v/base_b.py 2>&1 | tee "$OUT/bound9.log"
