#!/usr/bin/env bash
# Check, bench and optionally tune in one go, logs and JSON in $OUT (or ./out).
# Wheels in .whl/ (for a machine that cannot reach a package index) are installed first.
# Usage (on the GPU machine, from the repo root):
#   GEN_COMMIT=<sha> scripts/device_run.sh [check] [bench] [tune]
# Results land in $OUT (or ./out when OUT is unset).
set -uo pipefail
OUT=${OUT:-out}
mkdir -p "$OUT"
if ls .whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || exit 1
  export PYTHONPATH=/tmp/site:$PWD
else
  export PYTHONPATH=$PWD
fi
export PYTHONUNBUFFERED=1
gen() { python3 -m generator.cli "$@"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$OUT/gpu.txt"
python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)' | tee -a "$OUT/gpu.txt"
rc=0
for step in "${@:-check bench}"; do
  for s in $step; do
    case "$s" in
      check) gen check --spec specs/h200.yaml --json "$OUT/check.json" 2>&1 | tee "$OUT/check.log"; rc=$((rc | ${PIPESTATUS[0]}));;
      check-mi355x) gen check --spec specs/mi355x.yaml --json "$OUT/check_mi355x.json" 2>&1 | tee "$OUT/check_mi355x.log";;
      bench) gen bench --spec specs/h200.yaml --baseline torch --baseline flashinfer --max-seconds 4 --json "$OUT/bench.json" 2>&1 | tee -a "$OUT/bench.log";;
      bench-l2big) gen bench --spec specs/h200.yaml --baseline flashinfer --l2-clear-mib 8192 --max-seconds 3 --json "$OUT/bench_l2big.json" 2>&1 | tee -a "$OUT/bench.log";;
      bench-prev) gen bench --spec perf/specs/h200-triton-32aabfc.yaml --max-seconds 3 --json "$OUT/bench_prev.json" 2>&1 | tee -a "$OUT/bench.log";;
      profile)
        # Nsight Compute on the largest and the smallest shape's kernels (third call on).
        for shape in "256 8192 mla_b256_kv8192" "4 1024 mla_b4_kv1024"; do
          set -- $shape
          timeout 300 ncu --clock-control none --section SpeedOfLight --section Occupancy \
            --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis \
            -k "regex:$3" -s 4 -c 4 --csv python3 scripts/profile_runner.py build/h200/submission.py "$1" "$2" 6 \
            > "$OUT/ncu_$3.csv" 2>&1
        done;;
      # Records and the (possibly rewritten) spec come back in $OUT: commit them to resume.
      # A quick correctness gate before a long step: stop at the first failure.
      gate) gen check --spec specs/h200.yaml --shapes b4_kv1024 --shapes b64_kv1024 --shapes b256_kv8192 --json "$OUT/gate.json" 2>&1 | tee "$OUT/gate.log"
            [ "${PIPESTATUS[0]}" = 0 ] || exit 1;;
      # TUNE_GPUS workers (default 1), TUNE_MINUTES (default 9).
      tune) gen tune --spec specs/h200.yaml --gpus "${TUNE_GPUS:-1}" --max-minutes "${TUNE_MINUTES:-9}" \
              --plot "$OUT/tune.png" 2>&1 | tee "$OUT/tune.log"; rc=$((rc | ${PIPESTATUS[0]}))
            cp perf/tune/h200.jsonl specs/h200.yaml "$OUT/";;
      bench-lb) gen bench --spec specs/h200.yaml --mode leaderboard --json "$OUT/bench_lb.json" 2>&1 | tee "$OUT/bench_lb.log";;
      *) echo "unknown step $s"; exit 2;;
    esac
  done
done
exit $rc
