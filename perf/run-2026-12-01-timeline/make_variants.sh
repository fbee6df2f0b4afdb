#!/usr/bin/env bash
# Make one experiment file from a build of specs/h200.yaml made with
# variants.patch applied to the template (the patch's switches are all off):
#   perf/run-2026-12-01-timeline/make_variants.sh BUILT_SUBMISSION.py OUT.py [SWITCH ...]
# SWITCH: GL_STAMPS_ON (the timeline stamps), GL_LATE_FILL (run 2), GL_Q_FIRST
# (run 2), GL_WIDE_STORE (run 3), GL_FOLD_SWIZZLE (run 4), GL_FILL_INTERLEAVE (run 5; run 5 also added stamps 10-13). The runs' files:
# v/s_base.py = GL_STAMPS_ON; v/s_late.py = GL_STAMPS_ON GL_LATE_FILL;
# v/late.py = GL_LATE_FILL; v/both.py = GL_LATE_FILL GL_Q_FIRST; and so on;
# v/base.py = no switch (the committed kernels plus dead code).
set -euo pipefail
src=$1 out=$2
shift 2
cp "$src" "$out"
for s in "$@"; do
  grep -q "^$s = gl.constexpr(False)" "$out" || { echo "no switch $s in $src" >&2; exit 1; }
  sed -i "s/^$s = gl.constexpr(False)/$s = gl.constexpr(True)/" "$out"
done
