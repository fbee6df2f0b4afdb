#!/usr/bin/env bash
# Third device call: the stream's stamps (stream.py --stamps) beside gen timeline of the
# committed spec: when each program's first and last tiles are in, with and without compute.
set -uo pipefail
D=perf/run-2026-12-01-small
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
python3 $D/stream.py "$OUT/stream3-stamps.json" --stamps 2>&1 | tee "$OUT/stream3-stamps.log"
python3 -m generator.cli timeline --spec specs/h200.yaml --json "$OUT/timeline3.json" 2>&1 | tee "$OUT/timeline3.log"
