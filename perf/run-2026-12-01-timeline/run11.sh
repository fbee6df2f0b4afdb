#!/usr/bin/env bash
# Eleventh device call: partials fp16 on b4 kv1024 and b32 kv1024 or not, order-balanced
# (bound.py's files in the order fp32, fp16, fp16, fp32: run 8 showed a process's second
# file of identical kernels 0.3-0.7 us slower). v/fp32_*.py: build/h200/submission.py at
# 2aa6ad4; v/fp16_*.py: the build of perf/specs/h200-partials16-all.yaml.
set -uo pipefail
D=perf/run-2026-12-01-timeline
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound11.json" $D/v/fp32_a.py $D/v/fp16_a.py $D/v/fp16_b.py $D/v/fp32_b.py 2>&1 | tee "$OUT/bound11.log"
