#!/usr/bin/env bash
# Fifteenth device call (twentieth session): b4 kv8192 without late_fill
# again (run 14's nolf) against three copies of the build (b3cb5c5), one
# process, 300 calls a file; gen check of it on b4 kv8192.
set -uo pipefail
R=perf/run-2026-12-01-twentieth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_SHAPES=4x8192 BOUND_STATES=dirty BOUND_RUNS=300 timeout 200 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound15.json" $V/base_a.py $V/base_b.py $V/base_c.py \
  $V/nolf_a.py $V/nolf_b.py 2>&1 | tee "$OUT/bound15.log" | tail -3
timeout 120 python3 -m generator.cli check --spec $R/specs/h200-b4k8-nolf.yaml --shapes b4_kv8192 --json "$OUT/check15-nolf.json" \
  > "$OUT/check15-nolf.log" 2>&1; echo "check rc $?"
