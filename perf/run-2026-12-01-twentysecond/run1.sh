#!/usr/bin/env bash
# First device call (twenty-second session): mkvar.py lsum_end (the row sums
# reduced under the last tile's last PV wgmmas) and the b256 shapes on two
# consumer warpgroups in two waves (specs/h200-b256-c2.yaml; its other shapes
# are the build's kernels, so c2_a / c2_b are two more base copies there)
# against three copies of the build (6a557ea), one process, all eight shapes,
# 300 calls a file; the variants' outputs compared with the build's.
set -uo pipefail
R=perf/run-2026-12-01-twentysecond
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv > "$OUT/gpu-run1.txt" 2>&1
CMP_SHAPES=4x1024,4x8192,32x1024,64x1024,256x1024,256x8192 timeout 150 python3 perf/run-2026-12-01-fifteenth/cmp.py \
  "$OUT/cmp1.json" $V/base_a.py $V/lsumend_a.py $V/c2_a.py > "$OUT/cmp1.log" 2>&1; tail -c 1500 "$OUT/cmp1.log"
BOUND_SHUFFLE=1 BOUND_STATES=dirty BOUND_RUNS=300 timeout 420 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound1.json" $V/base_a.py $V/base_b.py $V/base_c.py \
  $V/lsumend_a.py $V/lsumend_b.py $V/c2_a.py $V/c2_b.py 2>&1 | tee "$OUT/bound1.log" | tail -9
