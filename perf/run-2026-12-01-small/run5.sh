#!/usr/bin/env bash
# Fifth device call: the barrier merge with every split's share loaded at once (the
# template change), against the committed build: gen check, then one process,
# order-balanced (old, new, new, old), the six split shapes; then gen timeline.
# v/old_*.py: build/h200/submission.py at 39c5ab9; v/new_*.py: the working tree's build.
set -uo pipefail
D=perf/run-2026-12-01-small
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
python3 -m generator.cli check --spec specs/h200.yaml --json "$OUT/check5.json" > "$OUT/check5.log" 2>&1; echo "check rc $?"
grep -c "│ pass" "$OUT/check5.log"; grep "FAIL\|fail " "$OUT/check5.log" | head -5
BOUND_SHAPES=4x1024,4x8192,32x1024,32x8192,64x1024,64x8192 BOUND_STATES=dirty python3 perf/run-2026-12-01-bound/bound.py \
  "$OUT/bound5.json" $D/v/old_a.py $D/v/new_a.py $D/v/new_b.py $D/v/old_b.py 2>&1 | tee "$OUT/bound5.log"
S="--shapes b4_kv1024 --shapes b4_kv8192 --shapes b32_kv1024 --shapes b32_kv8192 --shapes b64_kv1024 --shapes b64_kv8192"
python3 -m generator.cli timeline --spec specs/h200.yaml $S --json "$OUT/timeline5.json" > "$OUT/timeline5.log" 2>&1
python3 - "$OUT/timeline5.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d = d.get("shapes", d)
for n, r in d.items():
    s = r["slots"]
    print(n, round(r["event_us"], 2), "passed", s["merge barrier passed"]["median_us"], "merged", s["merge stores issued"]["median_us"])
PY
