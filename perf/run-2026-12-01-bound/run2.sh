#!/usr/bin/env bash
# Second device call: gen check of the row-pair build and of the small-shape variant,
# then old / new / new-L2-resident / variant in one process (bound.py), then gen bench.
set -uo pipefail
D=perf/run-2026-12-01-bound
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
gen() { python3 -m generator.cli "$@"; }
nvidia-smi --query-gpu=name,driver_version --format=csv | tee "$OUT/gpu.txt"
gen check --spec specs/h200.yaml --json "$OUT/check.json" 2>&1 | tail -15 | tee "$OUT/check.log"
gen check --spec perf/specs/h200-vregs-small.yaml --json "$OUT/check_vregs_small.json" 2>&1 | tail -8 | tee "$OUT/check_vs.log"
python3 $D/bound.py "$OUT/bound2.json" $D/fp8.py $D/fp8_rowpairs.py $D/fp8_rowpairs_none.py $D/vregs_small.py 2>&1 | tee "$OUT/bound2.log"
gen bench --spec specs/h200.yaml --baseline torch --baseline flashinfer --max-seconds 4 --json "$OUT/bench.json" \
  --compare perf/h200-2026-11-30-session7-final.json 2>&1 | tail -40 | tee "$OUT/bench.log"
