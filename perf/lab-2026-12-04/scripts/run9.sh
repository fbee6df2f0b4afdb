#!/usr/bin/env bash
# Final run, part 2: the build before (86ce894) and this one in one process
# (2 copies each, shuffled, 2 rounds), and MXFP4 on the gluon backend.
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
cp build/h200/submission.py .lab/v8/new_a.py; cp build/h200/submission.py .lab/v8/new_b.py
timeout 150 python3 .lab/warm.py .lab/v8 12 > "$OUT/warm.log" 2>&1; echo "warm rc $?"
DET_CALLS=3 timeout 240 python3 .lab/ab.py "$OUT/ab9.json" .lab/v8 2 300 2>&1 | tee "$OUT/ab9.log" | grep -v "^WARN"
timeout 150 python3 -m generator.cli check --spec tests/specs/gluon_mxfp4.yaml --seeds 4 --repeats 20 --json "$OUT/check-mx.json" > "$OUT/check-mx.log" 2>&1
echo "mx check rc $?"; grep -A 12 -i "summary" "$OUT/check-mx.log" | tail -14
