"""Thirty-first session: run 4's raw stamps, the build against remap.

    .venv/bin/python perf/run-2026-12-02-thirtyfirst/rawan.py

Per shape and build, medians over calls of: the median program's first
scores, loop end (the later of its two warpgroups) and merge stores issued;
the spread of loop ends (latest - median); the latest row's finish; the
call. Slots as gen timeline's: 0 entry, 3 first scores, 4 / 9 the two
warpgroups' loop ends, 7 merge stores issued, 14 the SM.
"""

import gzip
import io
import statistics as S
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent / "records/run4"


def rows_of(gx, gy, mode):
    out = {}
    for p in range(gx * gy):
        b, m = divmod(p, gy)
        lin = b + gx * m
        if mode == "remap":
            blk = 2 * gy
            b, m = (lin // blk) * 2 + lin % 2, (lin % blk) // 2
        out.setdefault(b, []).append(p)
    return out


def main():
    for shape in ("b32_kv8192", "b64_kv8192"):
        for mode in ("base", "remap"):
            d = torch.load(io.BytesIO(gzip.open(HERE / mode / f"raw-{shape}.pt.gz").read()), weights_only=False)
            st = d["stamps"].double()
            gx, gy = d["grid"]
            rows = rows_of(gx, gy, mode)
            t0 = st[:, :, 0].min(dim=1, keepdim=True).values
            rel = (st[:, :, :14] - t0[:, :, None]) / 1000.0
            end = torch.maximum(rel[:, :, 4], rel[:, :, 9])
            first, loop, merged, spread, last_row, rate = [], [], [], [], [], []
            for c in range(st.shape[0]):
                first.append(rel[c, :, 3].median().item())
                loop.append(end[c].median().item())
                merged.append(rel[c, :, 7].median().item())
                spread.append(end[c].max().item() - end[c].median().item())
                last_row.append(max(max(end[c, p].item() for p in ps) for ps in rows.values()))
                rate.append(S.fmean((end[c, p] - rel[c, p, 3]).item() for p in range(gx * gy)))
            print(f"{shape} {mode:5s} first scores {S.median(first):6.2f}  loop end {S.median(loop):6.2f}"
                  f"  mean loop {S.median(rate):6.2f}  spread {S.median(spread):5.2f}  last row {S.median(last_row):6.2f}"
                  f"  merge stores {S.median(merged):6.2f}  call {S.median(d['event_us']):6.2f}")


if __name__ == "__main__":
    main()
