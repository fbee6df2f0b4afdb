#!/usr/bin/env bash
# Check, bench and optionally tune in one go, logs and JSON in $OUT (or ./out).
# Wheels in .whl/ (for a machine that cannot reach a package index) are installed first.
# Usage (on the GPU machine, from the repo root):
#   GEN_COMMIT=<sha> scripts/device_run.sh [check] [bench] [tune]
#   scripts/device_run.sh "check-mxfp4 bench-mxfp4"   (issue 9: about 4-6 min of GPU in all)
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
      # CHECK_ARGS: more gen check options, e.g. "--repeats 200 --seeds 8" for a record run.
      check) gen check --spec specs/h200.yaml ${CHECK_ARGS:-} --json "$OUT/check.json" 2>&1 | tee "$OUT/check.log"; rc=$((rc | ${PIPESTATUS[0]}));;
      # The mi355x Triton runners on this GPU; its aiter entries cannot run here (listed, not failed).
      check-mi355x) gen check --spec specs/mi355x.yaml --allow-unrunnable ${CHECK_ARGS:-} --json "$OUT/check_mi355x.json" 2>&1 | tee "$OUT/check_mi355x.log";;
      # BENCH_COMPARE=<earlier run's JSON> adds gen bench --compare.
      bench) gen bench --spec specs/h200.yaml --baseline torch --baseline flashinfer --max-seconds 4 --json "$OUT/bench.json" \
               ${BENCH_COMPARE:+--compare "$BENCH_COMPARE"} 2>&1 | tee -a "$OUT/bench.log";;
      bench-l2big) gen bench --spec specs/h200.yaml --baseline flashinfer --l2-clear-mib 8192 --max-seconds 3 --json "$OUT/bench_l2big.json" 2>&1 | tee -a "$OUT/bench.log";;
      # Three programs per SM (perf/specs/h200-3cta*.yaml) against specs/h200.yaml, large shapes, one process.
      bench-3cta) gen bench --spec specs/h200.yaml --spec perf/specs/h200-3cta.yaml --spec perf/specs/h200-3cta-v8.yaml \
                    --shapes b32_kv8192 --shapes b64_kv8192 --shapes b256_kv1024 --shapes b256_kv8192 \
                    --max-seconds 2 --json "$OUT/bench_3cta.json" 2>&1 | tee -a "$OUT/bench_3cta.log";;
      bench-prev) gen bench --spec perf/specs/h200-triton-32aabfc.yaml --max-seconds 3 --json "$OUT/bench_prev.json" 2>&1 | tee -a "$OUT/bench.log";;
      # Issue 9, MXFP4 KV on the H200 (perf/specs/h200-mxfp4*.yaml: Triton, dequantised
      # scores / tl.dot_scaled scores). Neither step changes rc: an experiment.
      # check-mxfp4: one process per spec (a compile failure in one keeps the other's
      # results): $OUT/check_h200-mxfp4{,-scaled}.json, log $OUT/check_mxfp4.log.
      # About 1-1.5 min of GPU each (new kernels compile: 8 attention + 7 merges per
      # spec; the check cases themselves take seconds), so about 2-3 min for the step.
      check-mxfp4)
        for m in h200-mxfp4 h200-mxfp4-scaled; do
          gen check --spec "perf/specs/$m.yaml" --json "$OUT/check_$m.json" 2>&1 | tee -a "$OUT/check_mxfp4.log"
        done;;
      # bench-mxfp4: one process times the gluon fp8 build and both MXFP4 builds in turn
      # (same GPU, same clocks; gen bench writes one JSON per spec as it finishes, so a
      # failure in the last spec keeps the first two): $OUT/bench_mxfp4.h200.json,
      # bench_mxfp4.h200-mxfp4.json, bench_mxfp4.h200-mxfp4-scaled.json, log bench_mxfp4.log.
      # Timing at most 3 specs x 8 shapes x 2 clocks (queued, idle) x 3 s = 144 s (the
      # 0.1% stop rule ends most earlier), plus about 30 s of setup (8 GiB clear buffer,
      # HBM copy, compiles cached by check-mxfp4 when it ran first): about 2-3 min.
      bench-mxfp4) gen bench --spec specs/h200.yaml --spec perf/specs/h200-mxfp4.yaml \
                     --spec perf/specs/h200-mxfp4-scaled.yaml --max-seconds 3 \
                     --json "$OUT/bench_mxfp4.json" 2>&1 | tee -a "$OUT/bench_mxfp4.log";;
      profile)
        # Nsight Compute on the largest and the smallest shape's kernels (third call on).
        for shape in "256 8192 mla_b256_kv8192" "4 1024 mla_b4_kv1024"; do
          set -- $shape
          timeout 300 ncu --clock-control none --section SpeedOfLight --section Occupancy \
            --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis \
            -k "regex:$3" -s 4 -c 4 --csv python3 scripts/profile_runner.py build/h200/submission.py "$1" "$2" 6 \
            > "$OUT/ncu_$3.csv" 2>&1
        done;;
      # Fixed cost per call against cost per tile (scripts/sweep_runner.py), and ncu's
      # view of the 256-program kernel (kernel time without launch, DRAM throughput).
      sweep)
        python3 scripts/sweep_runner.py build/h200/submission.py run_b256_kv1024 256 64,128,256,512,1024,2048 \
          --json "$OUT/sweep_b256.json" 2>&1 | tee -a "$OUT/sweep.log"
        python3 scripts/sweep_runner.py build/h200/submission.py run_b32_kv8192 32 1024,2048,4096,8192 \
          --json "$OUT/sweep_b32.json" 2>&1 | tee -a "$OUT/sweep.log"
        python3 scripts/sweep_runner.py build/h200/submission.py run_b4_kv1024 4 64,256,1024 \
          --json "$OUT/sweep_b4.json" 2>&1 | tee -a "$OUT/sweep.log"
        for shape in "256 1024 mla_b256_kv1024" "256 64 mla_b256_kv1024" "4 1024 mla_b4_kv1024"; do
          set -- $shape
          timeout 200 ncu --section SpeedOfLight --section LaunchStats --section WarpStateStats \
            --section MemoryWorkloadAnalysis -k "regex:$3" -s 4 -c 2 --csv \
            python3 scripts/profile_runner.py build/h200/submission.py "$1" "$2" 6 "run_${3#mla_}" > "$OUT/ncu_$1_$2.csv" 2>&1
        done;;
      # What the split-K merge costs each split runner (scripts/merge_cost.py), and ncu's
      # kernel durations (no launch cost) of two split runners' attention and merge kernels.
      merge-cost)
        python3 scripts/merge_cost.py build/h200/submission.py --json "$OUT/merge_cost.json" 2>&1 | tee -a "$OUT/merge_cost.log"
        for shape in "4 1024 mla_b4_kv1024" "32 8192 mla_b32_kv8192"; do
          set -- $shape
          timeout 200 ncu --metrics gpu__time_duration.sum -k "regex:$3" -s 4 -c 4 --csv \
            python3 scripts/profile_runner.py build/h200/submission.py "$1" "$2" 6 "run_${3#mla_}" > "$OUT/ncu_time_$1_$2.csv" 2>&1
        done;;
      # Records and the (possibly rewritten) spec come back in $OUT: commit them to resume.
      # A quick correctness gate before a long step: stop at the first failure.
      gate) gen check --spec specs/h200.yaml --shapes b4_kv1024 --shapes b64_kv1024 --shapes b256_kv8192 --json "$OUT/gate.json" 2>&1 | tee "$OUT/gate.log"
            [ "${PIPESTATUS[0]}" = 0 ] || exit 1;;
      # TUNE_GPUS workers (default 1), TUNE_MINUTES (default 9).
      tune) gen tune --spec specs/h200.yaml --gpus "${TUNE_GPUS:-1}" --max-minutes "${TUNE_MINUTES:-9}" \
              --plot "$OUT/tune.png" 2>&1 | tee "$OUT/tune.log"; rc=$((rc | ${PIPESTATUS[0]}))
            cp perf/tune/h200.jsonl specs/h200.yaml "$OUT/";;
      # VARIANTS="perf/specs/a.yaml perf/specs/b.yaml": gen check each variant spec
      # (check_<name>.json), then one gen bench process times specs/h200.yaml and every
      # variant (bench_variants.<target>.json), so the comparison shares GPU and clocks.
      variants)
        for v in ${VARIANTS:?set VARIANTS to spec files}; do
          gen check --spec "$v" --json "$OUT/check_$(basename "$v" .yaml).json" 2>&1 | tee -a "$OUT/variants.log"
        done
        gen bench --spec specs/h200.yaml $(printf -- '--spec %s ' $VARIANTS) --max-seconds 3 \
          --json "$OUT/bench_variants.json" 2>&1 | tee -a "$OUT/variants.log";;
      bench-lb) gen bench --spec specs/h200.yaml --mode leaderboard --json "$OUT/bench_lb.json" 2>&1 | tee "$OUT/bench_lb.log";;
      # Where each gluon program spends a call (about 30 s of GPU).
      timeline) gen timeline --spec specs/h200.yaml --json "$OUT/timeline.json" 2>&1 | tee "$OUT/timeline.log";;
      *) echo "unknown step $s"; exit 2;;
    esac
  done
done
exit $rc
