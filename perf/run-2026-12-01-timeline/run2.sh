#!/usr/bin/env bash
# Second device call: the timeline of the late ring fill and of Q before the
# ring (stamped variants), then the unstamped variants timed interleaved (bound.py).
set -uo pipefail
# (the files in v/: make_variants.sh, from a build made with variants.patch)
D=perf/run-2026-12-01-timeline
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
python3 $D/same.py build/h200/submission.py $D/v/late.py $D/v/qfirst.py $D/v/both.py 2>&1 | tee "$OUT/same2.log"
python3 $D/timeline.py "$OUT/timeline2.json" build/h200/submission.py $D/v/s_base.py $D/v/s_late.py $D/v/s_qfirst.py 2>&1 | tee "$OUT/timeline2.log"
python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound2.json" build/h200/submission.py $D/v/late.py $D/v/qfirst.py $D/v/both.py 2>&1 | tee "$OUT/bound2.log"
