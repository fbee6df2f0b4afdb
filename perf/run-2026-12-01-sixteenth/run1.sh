#!/usr/bin/env bash
# First device call (sixteenth session): (1) graph_probe.py on build/h200 at
# 491bb81 (each shape called directly and replayed from a CUDA graph, timed
# as gen bench times a call); (2) V's next 16 rows loaded a group ahead
# (vprefetch.patch of the tenth session, on the current template) on the
# V-from-registers shapes, and the two four-tile shapes with V from registers
# (specs/h200-vregs-small.yaml) with and without it, against two copies of
# the committed build, one process, dirty L2, 300 calls a file, shuffled.
set -uo pipefail
D=perf/run-2026-12-01-sixteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > "$OUT/gpu.txt" 2>&1
RUNS=200 timeout 200 python3 $D/graph_probe.py "$OUT/graph1.json" build/h200/submission.py 2>&1 | tee "$OUT/graph1.log" | cut -c1-400
CMP_SHAPES=4x8192,32x1024,32x8192,256x1024 timeout 120 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp1.json" \
  $D/v/base_a.py $D/v/vprefetch.py $D/v/vregs_vprefetch.py 2>&1 | tail -8
BOUND_SHUFFLE=1 BOUND_SHAPES=4x8192,32x1024,32x8192,64x8192,256x1024,256x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 260 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound1.json" \
  $D/v/base_a.py $D/v/vprefetch.py $D/v/vregs.py $D/v/vregs_vprefetch.py $D/v/base_b.py 2>&1 | tail -8 | tee "$OUT/bound1.log"
