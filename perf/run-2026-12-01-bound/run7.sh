#!/usr/bin/env bash
# Seventh device call: what the cooperative launch of the barrier-merge kernels costs.
# coop/coop.py (not kept) = build/h200/submission.py at 6c45539; coop/plain.py = the same with
# launch_cooperative_grid=False on every runner (timing only: co-residency is then not
# guaranteed, though every grid here fits the GPU at once).
set -uo pipefail
D=perf/run-2026-12-01-bound
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
python3 $D/bound.py "$OUT/bound7.json" $D/coop/coop.py $D/coop/plain.py 2>&1 | tee "$OUT/bound7.log"
