"""Run 3 variants: b32_kv1024 / b64_kv1024 on the new template."""
import json, sys
from pathlib import Path
from ruamel.yaml import YAML
sys.path.insert(0, ".")
from generator.core.planner import build_plan
from generator.core.render import render
from generator.core.spec import load_spec
V = {
  "b32_kv1024": {"nve": {"v_early": False}, "nrf": {"early_refill": False}, "p32": {"partials": "fp32"},
                 "p8": {"partials": "fp8"}, "s2": {"num_stages": 2}},
  "b64_kv1024": {"nve": {"v_early": False}, "rf": {"early_refill": True}, "p32": {"partials": "fp32"},
                 "p8": {"partials": "fp8"}, "s2": {"num_stages": 2}},
}
out = Path(".lab/v3"); yaml = YAML()
index = json.loads((out / "variants.json").read_text()) if (out / "variants.json").exists() else {}
for tag, vs in V.items():
    for vn, fields in vs.items():
        doc = yaml.load(Path("specs/h200.yaml").read_text())
        for e in doc["shapes"]:
            if f"b{e['batch']}_kv{e['kv_len']}" == tag:
                e.update(fields); e.pop("tune", None)
        f = out / f"{tag}__{vn}.yaml"
        with f.open("w") as fh: yaml.dump(doc, fh)
        spec = load_spec(f); (out / f"{tag}__{vn}.py").write_text(render(build_plan(spec), spec)); f.unlink()
        index[f"{tag}__{vn}"] = [tag, fields]
(out / "variants.json").write_text(json.dumps(index, indent=1))
