#!/usr/bin/env bash
# Fifth device call (nineteenth session): gen timeline of every shape with
# the SM balance (54434d5), to bound what moving loop work between SMs at
# run time could save on each shape.
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1 COLUMNS=200
timeout 300 python3 -m generator.cli timeline --spec specs/h200.yaml --runs 30 --json "$OUT/timeline5.json" \
  > "$OUT/timeline5.log" 2>&1
grep -E "SMs: their|call .* us" "$OUT/timeline5.log"
