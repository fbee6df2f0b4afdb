#!/usr/bin/env bash
# Third device call (twenty-second session): gen timeline of the build with
# one more stamp (a local, uncommitted template edit): on the one-consumer
# kernels, slot 8 is written once the first tile has landed (its mbarrier
# passed), before its score wgmmas (the table labels slot 8 with consumers
# 2's meaning, "second warpgroup: first scores").
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 300 python3 -m generator.cli timeline --spec specs/h200.yaml --json "$OUT/timeline3.json" > "$OUT/timeline3.log" 2>&1
grep -A14 "programs, up to" "$OUT/timeline3.log" | grep -v "━" | head -120
