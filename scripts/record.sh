#!/usr/bin/env bash
# Reproduce PERF.md's record on a GPU machine, one command:
#   scripts/record.sh [SPEC] [OUT_DIR]        (default: specs/h200.yaml, out/)
# 1. gen check: every case at 8 seeds, each runner called 200 times on the same
#    inputs (bitwise), captured in a CUDA graph; JSON in OUT_DIR/check.json.
# 2. gen bench: leaderboard-style timing with the torch and FlashInfer
#    baselines in the same process (FlashInfer needs `pip install .[flashinfer]`;
#    without it that column says so), compared with the record before
#    (perf/h200-2026-12-04.json); JSON in OUT_DIR/bench.json.
# Exit status: non-zero if the check fails.
set -euo pipefail
spec=${1:-specs/h200.yaml}
out=${2:-out}
mkdir -p "$out"
gen check --spec "$spec" --seeds 8 --repeats 200 --json "$out/check.json"
gen bench --spec "$spec" --baseline torch --baseline flashinfer \
  --compare perf/h200-2026-12-04.json --json "$out/bench.json"
