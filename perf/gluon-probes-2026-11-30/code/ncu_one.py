"""Run one Gluon config on one shape a few times (for ncu)."""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(__file__))
from run_probe import GluonRunner, make_inputs  # noqa: E402

batch, L, splits = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
cfg = tuple(int(v) for v in sys.argv[4].split(":"))
q, kv, kv8, scale, qo, ki = make_inputs(batch, [L] * batch, 1)
r = GluonRunner(batch, splits, cfg, kv8.shape[0])
for _ in range(3):
    r(q, kv8, scale, qo, ki)
torch.cuda.synchronize()
