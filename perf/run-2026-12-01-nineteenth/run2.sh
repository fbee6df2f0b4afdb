#!/usr/bin/env bash
# Second device call (nineteenth session): Q before the ring's first requests
# (qfirst, qfirst2: mkvar.py) against three copies of the build (a3408d6),
# one process, dirty L2, 300 calls a file, shuffled, every shape; outputs
# against the float32 reference and the base (fifteenth session's cmp.py);

set -uo pipefail
R=perf/run-2026-12-01-nineteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run2.txt" 2>&1
CMP_SHAPES=4x1024,4x8192,32x1024,32x8192,64x1024,64x8192,256x1024,256x8192 timeout 150 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp2.json" $R/v/base_a.py $R/v/qfirst.py $R/v/qfirst2.py 2>&1 | cut -c1-400 | tee "$OUT/cmp2.log"
BOUND_SHUFFLE=1 BOUND_STATES=dirty BOUND_RUNS=300 timeout 360 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound2.json" \
  $R/v/base_a.py $R/v/qfirst.py $R/v/base_b.py $R/v/qfirst2.py $R/v/base_c.py 2>&1 | grep -E "^b[0-9]|Error|error|Timeout" | tee "$OUT/bound2.log"
