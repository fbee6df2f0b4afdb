#!/usr/bin/env bash
# Ninth device call (thirteenth session): gen timeline of the committed build (885ea52, l2_policy per
# shape), every shape: where each phase of a call goes now.
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 300 python3 -m generator.cli timeline --spec specs/h200.yaml --json "$OUT/timeline9.json" 2>&1 | tee "$OUT/timeline9.log"
