#!/usr/bin/env bash
# Third device call: the split shapes' partial stores 16 bytes wide in the
# V-through-shared-memory kernels (GL_WIDE_STORE): outputs, timeline, timing.
set -uo pipefail
# (the files in v/: make_variants.sh, from a build made with variants.patch)
D=perf/run-2026-12-01-timeline
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
python3 $D/same.py build/h200/submission.py $D/v/wide.py 2>&1 | tee "$OUT/same3.log"
python3 $D/timeline.py "$OUT/timeline3.json" build/h200/submission.py $D/v/s_base.py $D/v/s_wide.py 2>&1 | tee "$OUT/timeline3.log"
python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound3.json" build/h200/submission.py $D/v/wide.py $D/v/base.py 2>&1 | tee "$OUT/bound3.log"
