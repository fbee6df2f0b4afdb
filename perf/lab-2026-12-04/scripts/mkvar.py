"""Experiment material (not part of the product): variant builds of
specs/h200.yaml, each changing one entry's fields, for a one-process A/B.

    python .lab/mkvar.py OUTDIR [SPEC]

Writes OUTDIR/<name>.py (a whole submission) and OUTDIR/variants.json
({name: [shape tag, {field: value}]}), base_a / base_b = the spec as is.
"""

import json
import sys
from pathlib import Path

from ruamel.yaml import YAML

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.core.planner import build_plan  # noqa: E402
from generator.core.render import render  # noqa: E402
from generator.core.spec import load_spec  # noqa: E402

NOCLAIM = {"claim_tiles": False}
VARIANTS = {
    "b4_kv1024": {
        "lazy": {"lazy_rescale": True},
        "ahead": {"v_lookahead": True},
        "nolse": {"compact_lse": False},
    },
    "b4_kv8192": {
        "atomic": {"merge_poll": "atomic"},
        "nofill": {"late_fill": False, "q_fill": False},
        "norefill": {"early_refill": False},
        "nolse": {"compact_lse": False},
        "early": {"v_early": True},
    },
    "b32_kv1024": {
        "nofill": {"late_fill": False, "q_fill": False},
        "norefill": {"early_refill": False},
        "lse": {"compact_lse": True},
        "poll": {"merge_poll": "load"},
        "early": {"v_early": True},
    },
    "b32_kv8192": {
        "noclaim": NOCLAIM,
        "noclaim_refill": {**NOCLAIM, "early_refill": True},
        "c1s8": {**NOCLAIM, "consumers": 1, "splits": 8},
        "noclaim_nolse": {**NOCLAIM, "compact_lse": False},
    },
    "b64_kv1024": {
        "noearly": {"v_early": False},
        "nofill": {"late_fill": False, "q_fill": False},
        "norefill": {"early_refill": False},
        "lse": {"compact_lse": True},
        "poll": {"merge_poll": "load"},
    },
    "b64_kv8192": {
        "noclaim": NOCLAIM,
        "noclaim_refill": {**NOCLAIM, "early_refill": True},
        "c1s4": {**NOCLAIM, "consumers": 1, "splits": 4},
        "noclaim_lse": {**NOCLAIM, "compact_lse": True},
    },
    "b256_kv1024": {
        "ahead": {"v_lookahead": True},
        "norefill": {"early_refill": False},
        "nolazy": {"lazy_rescale": False},
    },
    "b256_kv8192": {
        "ahead": {"v_lookahead": True},
        "refill": {"early_refill": True},
    },
}


def build(spec_path: Path, out: Path) -> None:
    spec = load_spec(spec_path)
    out.write_text(render(build_plan(spec), spec))


def main() -> None:
    outdir = Path(sys.argv[1])
    src = Path(sys.argv[2] if len(sys.argv) > 2 else "specs/h200.yaml")
    outdir.mkdir(parents=True, exist_ok=True)
    yaml = YAML()
    index = {"base_a": [None, {}], "base_b": [None, {}]}
    build(src, outdir / "base_a.py")
    build(src, outdir / "base_b.py")
    for tag, variants in VARIANTS.items():
        for vname, fields in variants.items():
            doc = yaml.load(src.read_text())
            for entry in doc["shapes"]:
                if f"b{entry['batch']}_kv{entry['kv_len']}" == tag:
                    for k, v in fields.items():
                        entry[k] = v
                    entry.pop("tune", None)
            name = f"{tag}__{vname}"
            spec_file = outdir / f"{name}.yaml"
            with spec_file.open("w") as f:
                yaml.dump(doc, f)
            build(spec_file, outdir / f"{name}.py")
            spec_file.unlink()
            index[name] = [tag, fields]
            print("built", name)
    (outdir / "variants.json").write_text(json.dumps(index, indent=1))


if __name__ == "__main__":
    main()
