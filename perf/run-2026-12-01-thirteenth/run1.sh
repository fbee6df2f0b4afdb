#!/usr/bin/env bash
# First device call (thirteenth session): does an L2 evict-first policy on the reads save the
# clear's write-backs? (1) evict_probe.py: plain Triton reads of 19 MB .. 1.2 GB, normal /
# evict_first / evict_last, dirty and clean L2. (2) same.py: the committed build and its
# evict-first variant (make_ef.py: every TMA load of KV with an L2 evict-first cache policy)
# bit for bit. (3) bound.py: both, two copies each, every shape, dirty and clean, shuffled.
# v/ (not kept): base_{a,b} = build/h200 at 4e5d3d9, ef_{a,b} = make_ef.py of it.
set -uo pipefail
D=perf/run-2026-12-01-thirteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$OUT/gpu.txt"
[ -n "${SKIP_PROBE:-}" ] || RUNS=60 timeout 150 python3 $D/evict_probe.py "$OUT/evict_probe.json" 2>&1 | tee "$OUT/evict_probe.log"
timeout 120 python3 perf/run-2026-12-01-timeline/same.py $D/v/base_a.py $D/v/ef_a.py 2>&1 | tee "$OUT/same1.log"
BOUND_SHUFFLE=1 BOUND_RUNS=150 timeout 280 python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound1.json" \
  $D/v/base_a.py $D/v/ef_a.py $D/v/base_b.py $D/v/ef_b.py 2>&1 | tee "$OUT/bound1.log"
