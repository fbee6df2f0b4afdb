#!/usr/bin/env bash
set -uo pipefail
sed -i 's/timeout 330 /timeout 200 /; s/timeout 230 /timeout 150 /' .lab/run8.sh
sed -i 's/timeout 150 python3 .lab\/warm.py/timeout 60 python3 .lab\/warm.py/; s/timeout 240 python3 .lab\/ab.py/timeout 120 python3 .lab\/ab.py/; s/timeout 150 python3 -m generator.cli check/timeout 50 python3 -m generator.cli check/' .lab/run9.sh
bash .lab/run8.sh
bash .lab/run9.sh
date +%s >> "$OUT/t"
