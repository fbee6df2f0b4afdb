"""Thirty-first session: where the claim_tiles shapes' splits land, from the
nineteenth session's raw stamps of b32 kv8192 (every program's SM, 30 calls),
and a model of what renumbering the programs would do to the slowest row.

    .venv/bin/python perf/run-2026-12-02-thirtyfirst/gpc.py

The speed classes are the twenty-ninth session's (b256 kv1024's 16-tile loop
on groups of consecutive SMs: 34.2, 36.6 or 37.7 us); a row's tiles, claimed
at run time by its splits, take about 1 / (sum of its SMs' rates). Printed
per (batch, splits) and mapping: the mean over calls of the slowest row's
excess over the mean row (in those class units, about us of a 36 us loop)
and the share of rows whose splits all sit in one GPC (16 or 14 SMs).
"""
import gzip
import io
import statistics as S

import torch
d = torch.load(io.BytesIO(gzip.open("perf/run-2026-12-01-nineteenth/records/raw-b32_kv8192-run1.pt.gz").read()), weights_only=False)
st = d['stamps']; gx, gy = d['grid']
def cls(s):
    if 32 <= s <= 43 or 78 <= s <= 87 or 126 <= s <= 127: return 34.2
    if 20 <= s <= 31 or 44 <= s <= 47 or 66 <= s <= 77 or 88 <= s <= 91: return 36.6
    return 37.7
def gpc(s): return s // 16 if s < 64 else (4 + (s - 64) // 14 if s < 120 else 8)
calls = []
for c in range(st.shape[0]):
    sm = {}
    for p in range(gx*gy):
        pid_b, pid_m = divmod(p, gy)
        sm[pid_b + gx * pid_m] = int(st[c, p, 14])
    calls.append(sm)
def evaluate(batch, S_, mapping):
    worst, same = [], 0
    for sm in calls:
        rows = {}
        for L in range(batch * S_):
            r, s = mapping(L, batch, S_)
            rows.setdefault(r, []).append(sm[L])
        assert len(rows) == batch and all(len(v) == S_ for v in rows.values())
        # row time ~ 1 / sum of rates (rate = 1 / class time)
        t = [1.0 / sum(1.0 / cls(x) for x in v) * S_ for v in rows.values()]
        worst.append(max(t) - S.fmean(t))
        same += sum(len({gpc(x) for x in v}) == 1 for v in rows.values())
    return round(S.fmean(worst), 3), round(same / len(calls) / batch, 2)
ident = lambda L, B, S_: (L % B, L // B)
def spread(L, B, S_):
    blk = 2 * S_
    return (L // blk) * 2 + (L % 2), (L % blk) // 2
def spread4(L, B, S_):  # row's programs 4 apart in L (S=2 only): (0,4),(1,5),(2,6),(3,7)
    blk = 4 * S_
    return (L // blk) * 4 + (L % 4), (L % blk) // 4
for B, S_ in ((32, 4), (64, 2)):
    print(B, S_, "identity", evaluate(B, S_, ident), "stride2", evaluate(B, S_, spread), "stride4", evaluate(B, S_, spread4))
