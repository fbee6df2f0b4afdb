#!/usr/bin/env bash
# Eleventh device call (sixteenth session, on run 10's warm machine): gen
# timeline of specs/h200.yaml at 9a526cb, 30 calls a shape.
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 240 python3 -m generator.cli timeline --spec specs/h200.yaml --runs 30 --json "$OUT/timeline11.json" > "$OUT/timeline11.log" 2>&1
