#!/usr/bin/env bash
# Twelfth device call (twenty-first session): gen timeline of 6a83d5c (the
# kernels of 6a557ea), every shape.
GEN_COMMIT=6a83d5c OUT=$OUT scripts/device_run.sh "timeline" > "$OUT/run12.log" 2>&1
