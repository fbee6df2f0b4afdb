#!/usr/bin/env bash
# Third device call: V rows loaded one group ahead (fp8_vprefetch) against the committed
# kernel, both also L2-resident (_none), in one process; gen check of the variant build.
set -uo pipefail
D=perf/run-2026-12-01-bound
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
python3 $D/bound.py "$OUT/bound3.json" $D/fp8.py $D/fp8_none.py $D/fp8_vprefetch.py $D/fp8_vprefetch_none.py 2>&1 | tee "$OUT/bound3.log"
