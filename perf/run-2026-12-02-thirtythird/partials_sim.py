"""CPU model (thirty-third session): what storing the split partials in e4m3,
fp16 or int8 costs the output on gen check-like inputs (randn q and KV, fp8
per-tensor, sm_scale 1/24, P rounded to e4m3 per split as the kernels do).
Relative L2 error against float32 on the fp8 operands.

    .venv/bin/python perf/run-2026-12-02-thirtythird/partials_sim.py
"""
import torch, math
torch.manual_seed(0)
F8=torch.float8_e4m3fn
def q8(x):
    s=x.abs().max()/448; return (x/s).clamp(-448,448).to(F8).float(), s
def run(B,N,S,H=16,qmul=1.0):
    q=torch.randn(B,H,576)*qmul; kv=torch.randn(B,N,576)
    qf,qs=q8(q); kf,ks=q8(kv)
    # reference on operands read: fp8 q and kv dequantised
    Q=qf*qs; K=kf*ks; V=K[...,:512]
    s=torch.einsum('bhd,bnd->bhn',Q,K)/24.0
    p=torch.softmax(s,-1); ref=torch.einsum('bhn,bnd->bhd',p,V)
    # kernel: per split, P rounded e4m3 relative to split max; partials
    outs={}
    n=N//S
    parts=[];lses=[]
    for j in range(S):
        ss=s[...,j*n:(j+1)*n]*1.0
        m=ss.amax(-1,keepdim=True)
        pe=torch.exp(ss-m); l=pe.sum(-1,keepdim=True)
        pr=pe.to(F8).float()
        o=torch.einsum('bhn,bnd->bhd',pr,kf[:,j*n:(j+1)*n,:512])/l  # units of kv scale
        parts.append(o); lses.append(m+torch.log(l))
    P=torch.stack(parts); L=torch.stack(lses)
    w=torch.softmax(L,0)
    def merge(Pq): return (w*Pq).sum(0)*ks
    def err(o): return ((o-ref).norm()/ref.norm()).item()
    res={'fp16':err(merge(P.half().float())),'fp8':err(merge(P.to(F8).float()))}
    am=P.abs().amax(-1,keepdim=True).clamp_min(1e-30); sc=am/127
    res['int8/head']=err(merge(torch.round(P/sc).clamp(-127,127)*sc))
    Pg=P.reshape(*P.shape[:-1],8,64); am=Pg.abs().amax(-1,keepdim=True).clamp_min(1e-30)
    sc=torch.exp2(torch.ceil(torch.log2(am/127)))
    res['int8/64pow2']=err(merge((torch.round(Pg/sc).clamp(-127,127)*sc).reshape(P.shape)))
    return res
for B,N,S in [(4,1024,16),(32,1024,4),(64,1024,2),(32,8192,4),(64,8192,2)]:
    print(B,N,S,{k:round(v,4) for k,v in run(B,N,S).items()}, 'q2x', {k:round(v,4) for k,v in run(B,N,S,qmul=2.0).items()})
