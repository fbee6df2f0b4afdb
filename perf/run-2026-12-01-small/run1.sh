#!/usr/bin/env bash
# First device call: the small shapes with two consumer warpgroups (consumers 2,
# fewer splits for b4 kv1024), with the two rings filled in turn (GL_FILL_INTERLEAVE),
# and with 8 warps (num_warps 8; V in 2 or 4 parts). v/: builds of specs/h200.yaml
# (base_a, base_b: the same file twice, this comparison's own noise),
# perf/specs/h200-small-{c2,w8,w8v4}.yaml, built from a template with fill-interleave.patch
# applied (a switch, off); c2il.py is c2.py with GL_FILL_INTERLEAVE set True.
set -uo pipefail
D=perf/run-2026-12-01-small
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$OUT/gpu.txt"
S="--shapes b4_kv1024 --shapes b4_kv8192 --shapes b32_kv1024"
for s in c2 w8 w8v4; do
  python3 -m generator.cli check --spec perf/specs/h200-small-$s.yaml $S --json "$OUT/check1-$s.json" 2>&1 | tail -5 | tee -a "$OUT/check1.log"
done
python3 perf/run-2026-12-01-timeline/same.py $D/v/c2.py $D/v/c2il.py 2>&1 | grep -v "b256\|b64\|b32_kv8192" | tee "$OUT/same1.log"
BOUND_SHAPES=4x1024,4x8192,32x1024 BOUND_STATES=dirty python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound1.json" \
  $D/v/base_a.py $D/v/c2.py $D/v/c2il.py $D/v/w8.py $D/v/w8v4.py $D/v/base_b.py 2>&1 | tee "$OUT/bound1.log"
