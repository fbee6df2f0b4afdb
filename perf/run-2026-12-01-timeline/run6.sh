#!/usr/bin/env bash
# Sixth device call: the split partials stored in fp16 (half the bytes; part_o
# buffers made float16 in the generated file, v/half.py and v/s_half.py).
set -uo pipefail
# half.py / s_half.py: base.py / s_base.py with
#   sed -E 's/(part_o = torch.empty\(.*dtype=torch\.)float32/\1float16/'
# (the files in v/: make_variants.sh, from a build made with variants.patch)
D=perf/run-2026-12-01-timeline
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
python3 $D/same.py build/h200/submission.py $D/v/half.py 2>&1 | tee "$OUT/same6.log"
python3 $D/timeline.py "$OUT/timeline6.json" build/h200/submission.py $D/v/s_base.py $D/v/s_half.py 2>&1 | tee "$OUT/timeline6.log"
python3 perf/run-2026-12-01-bound/bound.py "$OUT/bound6.json" build/h200/submission.py $D/v/half.py $D/v/base.py 2>&1 | tee "$OUT/bound6.log"
