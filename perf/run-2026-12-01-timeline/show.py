"""Print a timeline JSON (timeline.py) compactly: per shape and file, each slot's median / max (us from the first entry)."""
import json, os, sys
d = json.load(open(sys.argv[1]))
for shape, r in d["shapes"].items():
    print(shape, "committed %.2f" % r["committed_us"])
    for v in [k for k in r if k != "committed_us"]:
        x = r[v]
        ats = " ".join("%s=%.1f/%.1f" % (k[2:], x[k]["median"], x[k]["max"]) for k in sorted(x, key=lambda k: int(k[2:]) if k.startswith("at") else -1) if k.startswith("at"))
        print("  %-8s ev %.2f span %.2f | %s" % (v, x["event_us"], x["span_us"], ats))
