#!/usr/bin/env bash
# Run 5: ncu on b32 kv1024 and b64 kv1024, old build against new.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
for f in base_a new; do
  for s in "32 1024" "64 1024"; do
    set -- $s
    timeout 200 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
      --section LaunchStats --section Occupancy --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct \
      -k "regex:mla_b$1_kv$2" -s 3 -c 2 --csv python3 .lab/profile_runner.py .lab/v4/$f.py $1 $2 6 run_b$1_kv$2 > "$OUT/ncu_${f}_$1.csv" 2> "$OUT/ncu_${f}_$1.err"
    echo "$f $1 rc $?"
    grep -E '"(Duration|gpu__time_duration.sum|dram__bytes_read.sum|dram__bytes_write.sum|lts__t_sector_hit_rate.pct|Registers Per Thread|Memory Throughput|DRAM Throughput)"' "$OUT/ncu_${f}_$1.csv" | awk -F'","' '{print $(NF-2), $NF}' | head -14
  done
done
