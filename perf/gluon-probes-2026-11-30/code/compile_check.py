import collections
import re
import sys

import torch
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

sys.path.insert(0, "probe")
from aot import compile_sm90, res_usage  # noqa: E402
import mla_gluon  # noqa: E402

BLOCK_N = int(sys.argv[1]) if len(sys.argv) > 1 else 64
STAGES = int(sys.argv[2]) if len(sys.argv) > 2 else 3
SPLITS = int(sys.argv[3]) if len(sys.argv) > 3 else 1
WARPS = int(sys.argv[4]) if len(sys.argv) > 4 else 4
PIPE = int(sys.argv[5]) if len(sys.argv) > 5 else 0

kv = torch.empty((1024, 576), dtype=torch.float8_e4m3fn)
layout = gl.NVMMASharedLayout.get_default_for([BLOCK_N, 64], gl.float8e4nv)
desc = TensorDescriptor(kv, [1024, 576], [576, 1], [BLOCK_N, 64], layout)
q = torch.empty((4, 16, 576), dtype=torch.bfloat16)
f32 = torch.empty(16, dtype=torch.float32)
i32 = torch.empty(16, dtype=torch.int32)
args = dict(Q=q, kv_desc=desc, KV_SCALE=f32, QO_INDPTR=i32, KV_INDPTR=i32, OUT=q, PART_O=f32, PART_LSE=f32,
            stride_q_t=9216, stride_q_h=576, stride_o_t=8192, stride_o_h=512,
            stride_po_s=16 * 8192, stride_po_t=8192, stride_po_h=512, stride_pl_s=256, stride_pl_t=16, num_splits=SPLITS)
consts = dict(SM_SCALE_LOG2=0.06, Q_SCALE=6 / 448, FP8_MAX=448.0, NUM_HEADS=16, BLOCK_N=BLOCK_N,
              STAGES=STAGES, WRITE_PARTIAL=SPLITS > 1, V_PARTS=max(PIPE, 1), num_warps=WARPS)
k = compile_sm90(mla_gluon.mla_decode_gluon, args, consts, num_warps=WARPS)
ru, sass = res_usage(k)
print(ru.strip().splitlines()[-1])
print("shared", k.metadata.shared)
ops = collections.Counter(m.group(1) for m in re.finditer(r"\s(HGMMA|QGMMA|HMMA|LDS|STS|UTMALDG|BAR|LDL|STL|SHFL)\S*", sass))
print(dict(ops))
import os, subprocess, tempfile
import triton as _t
d = tempfile.mkdtemp()
open(os.path.join(d, "k.ptx"), "w").write(k.asm["ptx"])
ptxas = os.path.join(os.path.dirname(_t.__file__), "backends/nvidia/bin/ptxas")
r = subprocess.run([ptxas, "-arch=sm_90a", "-v", os.path.join(d, "k.ptx"), "-o", os.path.join(d, "k.o")], capture_output=True, text=True)
print(r.stderr[-3000:])
print([l for l in k.asm["ptx"].splitlines() if l.startswith(".target")])
