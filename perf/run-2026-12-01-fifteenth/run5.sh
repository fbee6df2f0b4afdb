#!/usr/bin/env bash
# Fifth device call (fifteenth session): the consumers-2 kernels' two rings
# filled in the split's tile order (each ring's first tile before either
# ring's second; fill.py = specs/h200.yaml built by the changed template)
# against two copies of build/h200 at dbdcc84: outputs (cmp.py), one process
# (dirty L2, 300 calls a file, shuffled), gen timeline of b64 kv1024.
set -uo pipefail
D=perf/run-2026-12-01-fifteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
CMP_SHAPES=32x8192,64x1024,64x8192 timeout 150 python3 $D/cmp.py "$OUT/cmp5.json" $D/v/base_a.py $D/v/fill.py 2>&1 | tail -3 | tee "$OUT/cmp5.log"
BOUND_SHUFFLE=1 BOUND_SHAPES=32x8192,64x1024,64x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 150 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound5.json" \
  $D/v/base_a.py $D/v/fill.py $D/v/base_b.py 2>&1 | tail -3 | tee "$OUT/bound5.log"
timeout 100 python3 -m generator.cli timeline --spec specs/h200.yaml --shapes b64_kv1024 > "$OUT/timeline5.log" 2>&1
