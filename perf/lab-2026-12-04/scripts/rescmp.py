"""Compare two resources JSON reports (kernel -> regs, smem, loop instr, barriers)."""
import json, sys
def load(p):
    d = json.load(open(p))
    out = {}
    for k in d["kernels"]:
        ml = k.get("main_loop") or {}
        out[k["kernel"]] = (k.get("registers"), k.get("spilled_registers", k.get("spills")), k.get("shared_bytes"), ml.get("instructions"), ml.get("barriers"))
    return out, d
a, da = load(sys.argv[1]); b, db = load(sys.argv[2])
print(list(da["kernels"][0].keys()))
for k in sorted(set(a) | set(b)):
    print(f"{k:32s} {a.get(k)}  ->  {b.get(k)}")
