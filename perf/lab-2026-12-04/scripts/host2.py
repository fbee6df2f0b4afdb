"""Experiment material: host us per call, old vs new build, bench's method and 100-call method, interleaved; cProfile of new b64k1."""
import cProfile, io, pstats, sys, time, json
from pathlib import Path
import torch
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from generator.gpu.harness import import_submission
from generator.gpu.inputs import make_inputs, uniform_case
from generator.gpu.bench import host_us_per_call
SHAPES = [(4, 1024), (4, 8192), (32, 1024), (32, 8192), (64, 1024), (64, 8192), (256, 1024), (256, 8192)]
mods = {"old": import_submission(Path(".lab/v8/base_a.py").read_text()), "new": import_submission(Path("build/h200/submission.py").read_text())}
out = {}
for b, kv in SHAPES:
    tag = f"b{b}_kv{kv}"
    data = make_inputs(uniform_case(tag, b, kv), 3, "cuda", "e4m3fn")
    for rnd in range(2):
        for name, m in mods.items():
            t = host_us_per_call(lambda: m.custom_kernel(data), torch.cuda.synchronize)
            for _ in range(3): m.custom_kernel(data)
            torch.cuda.synchronize()
            n = 20 if b == 256 and kv == 8192 else 100
            t0 = time.perf_counter()
            for _ in range(n): m.custom_kernel(data)
            t1 = time.perf_counter(); torch.cuda.synchronize()
            r = out.setdefault(f"{tag} {name}", [])
            r.append((round(t.mean_us, 1), round(t.median_us, 1), round((t1 - t0) / n * 1e6, 1)))
    print(tag, {k: v for k, v in out.items() if k.startswith(tag + " ")}, flush=True)
    if tag == "b64_kv1024":
        pr = cProfile.Profile(); m = mods["new"]; pr.enable()
        for _ in range(300): m.custom_kernel(data)
        pr.disable(); torch.cuda.synchronize()
        s = io.StringIO(); pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(25)
        Path(sys.argv[1] + "/prof.txt").write_text(s.getvalue())
    del data
Path(sys.argv[1] + "/host2.json").write_text(json.dumps(out, indent=1))
