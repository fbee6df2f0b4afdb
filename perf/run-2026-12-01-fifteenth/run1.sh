#!/usr/bin/env bash
# First device call (fifteenth session): 128-row KV tiles (GL_BLOCK_N 128; the
# ring's stages 1 where two 128-row stages would not fit) against two copies
# of build/h200 at dbdcc84: outputs against the reference, then one process,
# dirty L2, 300 calls a file, shuffled.
set -uo pipefail
D=perf/run-2026-12-01-fifteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
CMP_SHAPES=4x1024,4x8192,32x1024,32x8192,64x1024,64x8192,256x1024,256x8192 timeout 300 \
  python3 $D/cmp.py "$OUT/cmp1.json" $D/v/base_a.py $D/v/bn128.py 2>&1 | tail -12 | tee "$OUT/cmp1.log"
BOUND_SHUFFLE=1 BOUND_STATES=dirty BOUND_RUNS=300 timeout 240 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound1.json" \
  $D/v/base_a.py $D/v/bn128.py $D/v/base_b.py 2>&1 | tail -10 | tee "$OUT/bound1.log"
