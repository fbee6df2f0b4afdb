#!/usr/bin/env bash
# Fifth device call (twenty-second session): gen timeline of the build with
# the one-consumer kernels' waits summed (wait-clock.patch, a local,
# uncommitted template edit): slot 9 = entry + the time the tile loop spent
# waiting for tiles 2.. (mbarrier), slot 11 = entry + the time it spent in
# the score wgmmas' waits, %clock64 cycles as ns at 1.98 GHz; so the table's
# "median us" of slots 9 and 11 read as those sums (labels: consumers 2's).
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 300 python3 -m generator.cli timeline --spec specs/h200.yaml --json "$OUT/timeline5.json" > "$OUT/timeline5.log" 2>&1
grep -A16 "programs, up to" "$OUT/timeline5.log" | grep -v "━" | head -120
