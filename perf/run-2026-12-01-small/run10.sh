#!/usr/bin/env bash
# Tenth device call: the lines each program's epilogue writes (its partial, or its
# output row; the merge's output row) requested into L2 by a one-thread bulk prefetch at
# the program's start (GL_PREFETCH_OUT, prefetch-out.patch on 74a40cd's template), so
# that the epilogue's stores find them there instead of allocating lines in an L2 full of
# the clear's modified ones. v/base_*.py: the build with the switch off; pf.py: on.
set -uo pipefail
D=perf/run-2026-12-01-small
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
python3 perf/run-2026-12-01-timeline/same.py $D/v/base_a.py $D/v/pf.py > "$OUT/same10.log" 2>&1; echo "same rc $?"
BOUND_STATES=dirty python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound10.json" \
  $D/v/base_a.py $D/v/pf.py $D/v/base_b.py 2>&1 | tee "$OUT/bound10.log"
