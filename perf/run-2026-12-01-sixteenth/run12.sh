#!/usr/bin/env bash
# Twelfth device call (sixteenth session): b4 kv1024 on the register path
# (specs/h200-b4vregs.yaml: 16 splits of one tile, 64 programs, V from
# registers with v_lookahead, fp16 partials; no dv_split, which needs V
# through shared memory) against d0cd7d2's build: gen check of the shape, one
# process (three copies each, dirty L2, 300 calls, shuffled).
set -uo pipefail
D=perf/run-2026-12-01-sixteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 80 python3 -m generator.cli check --spec $D/specs/h200-b4vregs.yaml --shapes b4_kv1024 > "$OUT/check12.log" 2>&1
grep -E "^│ [a-z]" "$OUT/check12.log" | cut -c1-150
BOUND_SHUFFLE=1 BOUND_SHAPES=4x1024 BOUND_STATES=dirty BOUND_RUNS=300 timeout 100 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound12.json" \
  $D/v/base_a.py $D/v/b4vregs_a.py $D/v/base_b.py $D/v/b4vregs_b.py $D/v/base_c.py $D/v/b4vregs_c.py 2>&1 | tail -2 | tee "$OUT/bound12.log"
