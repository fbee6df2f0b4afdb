#!/usr/bin/env bash
# Fourth device call (seventeenth session): lazy_rescale rebuilt (P made with
# the running max as it stands, the "passes the max by more than 8" flags
# behind P's own CTA barrier, the cross-warp max and the rescale only on a
# tile that moves the max; P double-buffered; the first tile straight to the cross-warp max, on a path of its own so that every path passes one CTA barrier) on every gluon shape
# (specs/h200-lazy.yaml) against the committed spec built by the same
# template (lazy_rescale off: kernels as at ba48fb3): one process, two copies
# each, dirty L2, 300 calls, shuffled; then gen check of the lazy spec.
set -uo pipefail
R=perf/run-2026-12-01-seventeenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_STATES=dirty BOUND_RUNS=300 timeout 300 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound4.json" \
  $R/v/base_a.py $R/v/lazy_a.py $R/v/base_b.py $R/v/lazy_b.py 2>&1 | grep -E "^b[0-9]|Error|error" | tee "$OUT/bound4.log"
timeout 250 python3 -m generator.cli check --spec $R/specs/h200-lazy.yaml --json "$OUT/check4.json" > "$OUT/check4.log" 2>&1
echo "check rc $?"; grep -E "^│ [a-z]" "$OUT/check4.log" | cut -c1-150; tail -3 "$OUT/check4.log"
