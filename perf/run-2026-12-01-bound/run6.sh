#!/usr/bin/env bash
# Sixth device call: where the consumer's tile time goes (L2-resident variants, bound.py).
# dec/*.py (not kept): build/h200/submission.py at c5c9c88 with fp8_none's line (bound.py), and
# none_pvq: _gl_out_regs' loop over 16-row groups cut to one (`gl.static_range(1)`: a quarter of PV);
# none_qk3: _gl_scores' three fp8 chains one chunk each instead of GL_NCHUNK // 3 (a third of QK);
# none_both: both.
set -uo pipefail
D=perf/run-2026-12-01-bound
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
python3 $D/bound.py "$OUT/bound6.json" $D/dec/none.py $D/dec/none_pvq.py $D/dec/none_qk3.py $D/dec/none_both.py 2>&1 | tee "$OUT/bound6.log"
