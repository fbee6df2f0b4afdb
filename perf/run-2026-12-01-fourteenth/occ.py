"""How many clusters of each merge-cluster kernel the GPU holds at once
(cuOccupancyMaxActiveClusters), after one call of its runner:
python occ.py SUBMISSION.py BATCHxKV ..."""
import sys
from pathlib import Path

import triton

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from generator.gpu.harness import import_submission  # noqa: E402
from generator.gpu.inputs import make_inputs, uniform_case  # noqa: E402

mod = import_submission(Path(sys.argv[1]).read_text())
utils = triton.runtime.driver.active.utils
for shape in sys.argv[2:]:
    batch, kv = (int(x) for x in shape.split("x"))
    case = uniform_case(shape, batch, kv)
    fn = mod.RUNNERS[(batch, kv, 1, 16)]
    inputs = make_inputs(case, 1, "cuda")
    fn(*inputs)
    for name, obj in vars(mod).items():
        if name.startswith(f"mla_b{batch}_kv{kv}_gluon") and hasattr(obj, "device_caches"):
            for cache in obj.device_caches.values():
                for k in cache[0].values():
                    k._init_handles()
                    n = utils.cuOccupancyMaxActiveClusters(k.function, k.metadata.shared, k.metadata.num_ctas)
                    print(shape, name, "num_ctas", k.metadata.num_ctas, "dynamic smem", k.metadata.shared,
                          "max active clusters", n, flush=True)
