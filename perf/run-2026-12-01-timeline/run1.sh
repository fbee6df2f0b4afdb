#!/usr/bin/env bash
# First device call: the per-program timeline of every shape (timeline.py).
set -uo pipefail
D=perf/run-2026-12-01-timeline
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv | tee "$OUT/gpu.txt"
# stamped.py: specs/h200.yaml built from the template with stamps.patch applied
python3 $D/timeline.py "$OUT/timeline.json" build/h200/submission.py $D/stamped.py 2>&1 | tee "$OUT/timeline.log"
