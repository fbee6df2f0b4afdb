#!/usr/bin/env bash
# Eighth device call (nineteenth session): the b256 shapes as 2 splits with
# the merge kernel (specs/h200-split2.yaml: `even`), and with split 0 taking
# all but the last 2, 4 or 8 tiles of a row (tail2/4/8, mkvar.py), so that
# the block scheduler hands the short second splits to SMs as they free up;
# against three copies of the build (e95fcc5), one process, dirty L2, 300
# calls a file, shuffled; outputs against the float32 reference.
set -uo pipefail
R=perf/run-2026-12-01-nineteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
CMP_SHAPES=256x1024,256x8192 timeout 120 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp8.json" $R/v/base_a.py $R/v/even.py $R/v/tail2.py $R/v/tail4.py $R/v/tail8.py 2>&1 | cut -c1-600 | tee "$OUT/cmp8.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=256x1024,256x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 300 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound8.json" \
  $R/v/base_a.py $R/v/even.py $R/v/tail2.py $R/v/base_b.py $R/v/tail4.py $R/v/tail8.py $R/v/base_c.py 2>&1 | grep -E "^b[0-9]|Error|error|Timeout" | tee "$OUT/bound8.log"
