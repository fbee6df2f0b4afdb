#!/usr/bin/env bash
# Eighth device call: each ring's later stages issued once its first tile is in (a
# GL_LATE_FILL switch in a scratch copy of the template, late-fill.patch), alone (lf) and
# with two chains on the small shapes (c2lf: perf/specs/h200-small-c2.yaml), where only
# the first tile of each warpgroup's ring is requested at first. v/base_*.py: build of
# specs/h200.yaml at 7854368 with the patch (switch off); lf.py: switch on; c2.py / c2lf.py:
# the c2 spec's build, switch off / on. Outputs must be bit-identical with and without it.
set -uo pipefail
D=perf/run-2026-12-01-small
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
python3 perf/run-2026-12-01-timeline/same.py $D/v/base_a.py $D/v/lf.py > "$OUT/same8-lf.log" 2>&1; echo "same lf rc $?"
python3 perf/run-2026-12-01-timeline/same.py $D/v/c2.py $D/v/c2lf.py > "$OUT/same8-c2lf.log" 2>&1; echo "same c2lf rc $?"
python3 -m generator.cli check --spec perf/specs/h200-small-c2.yaml --shapes b4_kv1024 --shapes b4_kv8192 --shapes b32_kv1024 \
  --json "$OUT/check8-c2.json" > "$OUT/check8-c2.log" 2>&1; echo "check c2 rc $?"
BOUND_STATES=dirty python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound8.json" \
  $D/v/base_a.py $D/v/lf.py $D/v/c2.py $D/v/c2lf.py $D/v/base_b.py 2>&1 | tee "$OUT/bound8.log"
