#!/usr/bin/env bash
# Fourth device call: the second warpgroup's results through a swizzled
# shared layout (consumers 2, GL_FOLD_SWIZZLE): outputs, timeline, timing.
set -uo pipefail
# (the files in v/: make_variants.sh, from a build made with variants.patch)
D=perf/run-2026-12-01-timeline
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
python3 $D/same.py build/h200/submission.py $D/v/fold.py 2>&1 | tee "$OUT/same4.log"
python3 $D/timeline.py "$OUT/timeline4.json" build/h200/submission.py $D/v/s_base.py $D/v/s_fold.py 2>&1 | tee "$OUT/timeline4.log"
python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound4.json" build/h200/submission.py $D/v/fold.py $D/v/base.py 2>&1 | tee "$OUT/bound4.log"
