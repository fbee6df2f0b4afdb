"""Stall samples of an ncu source-counter CSV (scripts/ncu_source.sh) by region and in
the main loop: python3 ncu_regions.py src_B_KV.csv LOOP_START LOOP_END (hex offsets from
the kernel's first instruction, as cuobjdump -sass of the kernel's sm90 cubin prints them)."""
import csv, collections, sys
f, lo, hi = sys.argv[1], int(sys.argv[2],16), int(sys.argv[3],16)
rows=list(csv.reader(open(f)))
hdr_i=[i for i,r in enumerate(rows) if r and r[0]=="Address"]
hdr=rows[hdr_i[0]]; body=rows[hdr_i[0]+1:(hdr_i[1]-1 if len(hdr_i)>1 else len(rows))]
H={h:i for i,h in enumerate(hdr)}
base=int(body[0][0],16)
reasons=[h for h in hdr if h.startswith('stall_') and 'Not Issued' not in h]
tot=collections.Counter(); reg=collections.Counter(); byop=collections.Counter(); rs=collections.Counter()
items=[]
for r in body:
    off=int(r[0],16)-base
    s=int(r[H['Warp Stall Sampling (All Samples)']] or 0)
    region='loop' if lo<=off<=hi else ('pre' if off<lo else 'post')
    reg[region]+=s
    src=r[H['Source']].strip()
    op=src.split()[0] if not src.startswith('@') else src.split()[1]
    if region=='loop':
        byop[op.split('.')[0]]+=s
        for x in reasons:
            v=int(r[H[x]] or 0); rs[x]+=v
        items.append((s,off,src,{x[6:]:int(r[H[x]] or 0) for x in reasons if int(r[H[x]] or 0)>0.1*s and s>0}))
T=sum(reg.values())
print("regions", {k:f"{v/T:.1%}" for k,v in reg.items()}, "total", T)
L=reg['loop']
print("loop by opcode", [(k,f"{v/L:.1%}") for k,v in byop.most_common(15)])
print("loop by reason", [(k[6:],f"{v/L:.1%}") for k,v in rs.most_common(10)])
for s,off,src,d in sorted(items,reverse=True)[:25]:
    print(f"{s/L:6.1%} {hex(off):>8} {src[:60]:60} {d}")
