#!/usr/bin/env bash
# Eighth device call (twelfth session; the seventh stopped at import: the wheels were not
# installed): does a programmatic dependent launch shorten a call as gen bench times it?
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD
python3 perf/run-2026-12-01-twelfth/pdl_probe.py "$OUT/pdl7.json"
