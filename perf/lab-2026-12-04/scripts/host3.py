"""Experiment material: why gen bench's host figure reads above a bare measurement.
A: bare host_us_per_call; B: after bench's queued+idle timing; C: after FlashInfer
import and runs; also per-call wall time of single calls after a sync (idle path)."""
import sys, time, json, statistics
from pathlib import Path
import torch
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from generator.gpu.harness import import_submission
from generator.gpu.inputs import make_inputs, uniform_case
from generator.gpu.bench import host_us_per_call, Clock
SHAPES = [(4, 1024), (4, 8192), (32, 1024), (32, 8192), (64, 1024), (64, 8192), (256, 1024), (256, 8192)]
m = import_submission(Path("build/h200/submission.py").read_text())
datas = {f"b{b}_kv{kv}": make_inputs(uniform_case(f"b{b}_kv{kv}", b, kv), 7, "cuda", "e4m3fn") for b, kv in SHAPES}
for d in datas.values():
    for _ in range(3): m.custom_kernel(d)
torch.cuda.synchronize()
res = {}
def host(tag): return round(host_us_per_call(lambda d=datas[tag]: m.custom_kernel(d), torch.cuda.synchronize).median_us, 1)
def single(tag, n=30):
    d = datas[tag]; out = []
    for _ in range(n):
        torch.cuda.synchronize(); t0 = time.perf_counter(); m.custom_kernel(d); out.append((time.perf_counter() - t0) * 1e6)
    return round(statistics.median(out), 1)
for tag in datas: res.setdefault(tag, {})["A_host"] = host(tag); res[tag]["A_single"] = single(tag)
clock = Clock(8192, "benchmark", 1.0)
for tag in datas:
    d = datas[tag]
    q = clock.time(lambda: m.custom_kernel(d), idle=False); i = clock.time(lambda: m.custom_kernel(d), idle=True)
    res[tag]["B_queued"] = round(q.median_us, 1); res[tag]["B_idle"] = round(i.median_us, 1)
    res[tag]["B_host"] = host(tag); res[tag]["B_single"] = single(tag)
from generator.gpu.baselines import FlashInferMLA
for tag in datas:
    mla = FlashInferMLA(datas[tag]); [mla.run() for _ in range(5)]; torch.cuda.synchronize(); del mla
    res[tag]["C_host"] = host(tag); res[tag]["C_single"] = single(tag)
for tag, r in res.items(): print(tag, r, flush=True)
Path(sys.argv[1] + "/host3.json").write_text(json.dumps(res, indent=1))
