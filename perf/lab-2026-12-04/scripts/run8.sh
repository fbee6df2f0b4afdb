#!/usr/bin/env bash
# Final run, part 1: gen check (8 seeds, 200 calls, CUDA graphs) and gen bench
# with both baselines, compared with the record before.
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
gen() { python3 -m generator.cli "$@"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt"
git rev-parse --short HEAD >> "$OUT/gpu.txt" 2>/dev/null
date +%s > "$OUT/t"
timeout 330 python3 -m generator.cli check --spec specs/h200.yaml --seeds 8 --repeats 200 --json "$OUT/check.json" > "$OUT/check.log" 2>&1
echo "check rc $?"; date +%s >> "$OUT/t"
grep -A 30 -i "summary" "$OUT/check.log" | tail -32
timeout 230 python3 -m generator.cli bench --spec specs/h200.yaml --baseline torch --baseline flashinfer --max-seconds 4 \
  --compare perf/h200-2026-12-02-before.json --json "$OUT/bench.json" > "$OUT/bench.log" 2>&1
echo "bench rc $?"; date +%s >> "$OUT/t"
tail -30 "$OUT/bench.log"
