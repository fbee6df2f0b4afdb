#!/usr/bin/env bash
# Fourth device call: gen timeline of the rejected small-shape variants (run 1), to see
# which phase made them slower.
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
S="--shapes b4_kv1024 --shapes b4_kv8192 --shapes b32_kv1024"
for s in w8 w8v4 c2; do
  python3 -m generator.cli timeline --spec perf/specs/h200-small-$s.yaml $S --json "$OUT/timeline4-$s.json" 2>&1 | tee "$OUT/timeline4-$s.log"
done
python3 -m generator.cli timeline --spec specs/h200.yaml $S --json "$OUT/timeline4-base.json" 2>&1 | tee "$OUT/timeline4-base.log"
