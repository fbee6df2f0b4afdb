#!/usr/bin/env bash
# Eighth device call (twenty-sixth session): what the fp8 path's epilogue
# shuffle costs. triv_* (timing only, outputs wrong on purpose): the build
# of the working tree (cur_*, b64 kv1024 with v_early, late_fill, q_fill)
# with _gl_store_out_regs storing the fp8 output parts in the fp16 path's
# dim order, a trivial layout conversion, instead of moving them to the
# true dims through shared memory. One process, 300 calls a file,
# shuffled, L2 dirty, every shape.
set -uo pipefail
R=perf/run-2026-12-02-twentysixth
V=$R/v
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
BOUND_SHUFFLE=1 BOUND_STATES=dirty BOUND_RUNS=300 timeout 400 \
  python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound8.json" $V/cur_a.py $V/cur_b.py $V/triv_a.py $V/triv_b.py \
  2>&1 | tee "$OUT/bound8.log" | tail -8
