#!/usr/bin/env bash
# Tenth device call (twenty-second session): gen timeline of 00cb60a.
OUT=$OUT scripts/device_run.sh "timeline" > "$OUT/run10.log" 2>&1
grep -A3 "SMs' balance" -A14 "$OUT/timeline.log" | tail -16
