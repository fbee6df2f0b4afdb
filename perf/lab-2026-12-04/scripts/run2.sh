#!/usr/bin/env bash
# Run 2: the rewritten gluon kernels: gen check at 4 seeds, MXFP4 gluon check,
# distinct outputs per runner, one-process timing against the build before
# (86ce894), host cost.
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
cp build/h200/submission.py .lab/v2/new_a.py; cp build/h200/submission.py .lab/v2/new_b.py
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt"
date +%s > "$OUT/t"
timeout 200 python3 .lab/warm.py .lab/v2 8 > "$OUT/warm.log" 2>&1; echo "warm rc $?"
date +%s >> "$OUT/t"
for s in 1 1001 2001 3001; do
  timeout 150 python3 -m generator.cli check --spec specs/h200.yaml --seed $s --json "$OUT/check-$s.json" > "$OUT/check-$s.log" 2>&1
  echo "check seed $s rc $?"; grep -E "FAIL|fail" "$OUT/check-$s.log" | head -5
done
date +%s >> "$OUT/t"
timeout 150 python3 -m generator.cli check --spec .lab/specs/mx.yaml --json "$OUT/check-mx.json" > "$OUT/check-mx.log" 2>&1; echo "check mx rc $?"
tail -5 "$OUT/check-mx.log"
date +%s >> "$OUT/t"
timeout 100 python3 .lab/hostcost.py build/h200/submission.py "$OUT/host" 2>&1 | tail -9
date +%s >> "$OUT/t"
DET_CALLS=50 timeout 240 python3 .lab/ab.py "$OUT/ab2.json" .lab/v2 2 300 2>&1 | tee "$OUT/ab2.log" | grep -v "^WARN"
date +%s >> "$OUT/t"
tar czf "$OUT/checks.tgz" -C "$OUT" $(cd "$OUT" && ls check-*) 2>/dev/null; rm -f "$OUT"/check-*
