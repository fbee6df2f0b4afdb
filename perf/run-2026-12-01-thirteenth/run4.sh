#!/usr/bin/env bash
# Fourth device call (thirteenth session): runs 2 and 3 again, done right. Their variants shared
# kernel names and source, so Triton's cache gave every variant the first one's cubin (evict-first
# at fraction 1.0): they measured one variant four times. make_ef.py now names each variant's
# kernels after its file. The TMA loads with an L2 cache hint: ef = evict_first, en = evict_normal,
# el = evict_last (fraction 1.0), ef50 = evict_first at fraction 0.5, h3 / h2 = evict_first on the
# latent's 3-D copies / the rope's 2-D copies only; base = build/h200 at 4e5d3d9. The five large
# shapes, one process, dirty L2, shuffled. v/ is not kept (make_ef.py remakes it).
set -uo pipefail
D=perf/run-2026-12-01-thirteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=32x8192,64x1024,64x8192,256x1024,256x8192 BOUND_STATES=dirty BOUND_RUNS=150 timeout 400 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound4.json" \
  $D/v/base.py $D/v/ef.py $D/v/en.py $D/v/el.py $D/v/ef50.py $D/v/h3.py $D/v/h2.py 2>&1 | tee "$OUT/bound4.log"
