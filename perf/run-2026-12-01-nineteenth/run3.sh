#!/usr/bin/env bash
# Third device call (nineteenth session): Q by TMA at the head of each
# program's TMA queue (qtma: mkvar.py) against three copies of the build
# (a3408d6), one process, dirty L2, 300 calls a file, shuffled, every shape;
# outputs against the float32 reference and the base; then the raw timeline
# (rawtl.py) of b64 kv1024 and b256 kv1024, base and qtma, on this machine.
set -uo pipefail
R=perf/run-2026-12-01-nineteenth
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > "$OUT/gpu-run3.txt" 2>&1
CMP_SHAPES=4x1024,4x8192,32x1024,32x8192,64x1024,64x8192,256x1024,256x8192 timeout 150 python3 perf/run-2026-12-01-fifteenth/cmp.py "$OUT/cmp3.json" $R/v/base_a.py $R/v/qtma.py 2>&1 | cut -c1-300 | tee "$OUT/cmp3.log"
BOUND_SHUFFLE=1 BOUND_STATES=dirty BOUND_RUNS=300 timeout 300 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound3.json" \
  $R/v/base_a.py $R/v/qtma.py $R/v/base_b.py $R/v/qtma2.py $R/v/base_c.py 2>&1 | grep -E "^b[0-9]|Error|error|Timeout" | tee "$OUT/bound3.log"
RAW_RUNS=30 timeout 100 python3 $R/rawtl.py "$OUT" specs/h200.yaml b256_kv1024 b64_kv1024 2>&1 | tail -3
RAW_VARIANT=qtma RAW_RUNS=30 timeout 100 python3 $R/rawtl.py "$OUT" specs/h200.yaml b256_kv1024 b64_kv1024 2>&1 | tail -3
