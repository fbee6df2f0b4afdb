#!/usr/bin/env bash
# Fifth device call: consumers 2 with the two rings filled tile by tile in turn
# (GL_FILL_INTERLEAVE), and finer stamps of the fold and the merge barrier.
set -uo pipefail
# (the files in v/: make_variants.sh, from a build made with variants.patch)
D=perf/run-2026-12-01-timeline
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
python3 $D/same.py build/h200/submission.py $D/v/inter.py 2>&1 | tee "$OUT/same5.log"
python3 $D/timeline.py "$OUT/timeline5.json" build/h200/submission.py $D/v/s_base.py $D/v/s_inter.py 2>&1 | tee "$OUT/timeline5.log"
python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound5.json" build/h200/submission.py $D/v/inter.py $D/v/base.py 2>&1 | tee "$OUT/bound5.log"
