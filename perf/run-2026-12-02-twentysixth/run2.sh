#!/usr/bin/env bash
# Second device call (twenty-sixth session): where b4 kv1024's call goes with
# V through shared memory (the build: dv_split 2, 128 programs) and with V
# from registers in fp8 (specs/h200-b4k1-regs16.yaml: dv_split 1, 64
# programs), gen timeline, 60 calls each, to see what a dv_split 2 on the
# register path could keep of each.
set -uo pipefail
R=perf/run-2026-12-02-twentysixth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
for s in specs/h200.yaml $R/specs/h200-b4k1-regs16.yaml; do
  n=$(basename $s .yaml)
  timeout 200 python3 -m generator.cli timeline --spec $s --shapes b4_kv1024 --runs 60 --json "$OUT/timeline2-$n.json" \
    > "$OUT/timeline2-$n.log" 2>&1
  tail -25 "$OUT/timeline2-$n.log"
done
