set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD
python3 -m generator.cli build --spec perf/specs/h200-vsmem.yaml --build-dir /tmp/b >/dev/null
cp build/h200/submission.py /tmp/b/new.py; cp /tmp/b/h200vsmem/submission.py /tmp/b/old.py
for v in new old; do
  for s in "4 1024 mla_b4_kv1024_gluon_split16" "32 8192 mla_b32_kv8192_gluon_split8"; do
    set -- $s
    timeout 150 ncu --section SpeedOfLight --section WarpStateStats --section SourceCounters --section LaunchStats \
      -k "regex:$3\$" -s 2 -c 1 -o /tmp/r_${v}_$1_$2 python3 scripts/profile_runner.py /tmp/b/$v.py $1 $2 3 > /tmp/ncu_${v}_$1.log 2>&1
    ncu -i /tmp/r_${v}_$1_$2.ncu-rep --page source --csv --print-source sass > $OUT/src_${v}_$1_$2.csv 2>&1
    ncu -i /tmp/r_${v}_$1_$2.ncu-rep --page details --csv > $OUT/det_${v}_$1_$2.csv 2>&1
  done
done
ls -la $OUT
