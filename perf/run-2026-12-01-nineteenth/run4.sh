#!/usr/bin/env bash
# Fourth device call (nineteenth session): gen timeline with the SM balance
# line (each program's %smid in slot 14), on a one-pass shape, a
# two-warpgroup shape and a one-tile shape.
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1 COLUMNS=200
timeout 200 python3 -m generator.cli timeline --spec specs/h200.yaml --shapes b256_kv1024 --shapes b64_kv8192 \
  --shapes b4_kv1024 --runs 30 --json "$OUT/timeline4.json" 2>&1 | tee "$OUT/timeline4.log" | tail -60
