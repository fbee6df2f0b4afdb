"""Thirty-first session: one-switch variants of specs/h200.yaml (text edits
of the shapes' flow mappings, checked), one file per switch, each switch
applied to every shape named for it.

    python3 perf/run-2026-12-02-thirtyfirst/mksw.py   # writes specs/h200-sw-*.yaml
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SPEC = (ROOT / "specs/h200.yaml").read_text()
OUT = Path(__file__).resolve().parent / "specs"

K = {"b32k8": (32, 8192), "b64k8": (64, 8192), "b256k1": (256, 1024), "b256k8": (256, 8192),
     "b4k1": (4, 1024)}

# switch -> {shape: {field: value or None (removed)}}
SWITCHES = {
    "nolazy": {"b32k8": {"lazy_rescale": None}, "b64k8": {"lazy_rescale": None},
               "b256k1": {"lazy_rescale": None, "early_refill": None}, "b256k8": {"lazy_rescale": None}},
    # (early_refill needs claim_tiles false: not on the consumers-2 shapes)
    "refill": {"b256k1": {"early_refill": None}, "b256k8": {"early_refill": "true"}},
    "look": {"b32k8": {"v_lookahead": None}, "b64k8": {"v_lookahead": None},
             "b256k1": {"v_lookahead": "true"}, "b256k8": {"v_lookahead": "true"}},
    "l2none": {"b32k8": {"l2_policy": None}, "b64k8": {"l2_policy": None},
               "b256k1": {"l2_policy": None}, "b256k8": {"l2_policy": "evict_last"}},
    "l2last": {"b32k8": {"l2_policy": "evict_last"}, "b256k1": {"l2_policy": "evict_last"}},
    "claim": {"b32k8": {"claim_tiles": None}, "b64k8": {"claim_tiles": None}},
    "lse": {"b32k8": {"compact_lse": None}, "b64k8": {"compact_lse": "true"}},
    "stag": {"b256k1": {"stagger": "true"}, "b256k8": {"stagger": "true"}},
    "poll": {"b32k8": {"merge_poll": "load"}, "b64k8": {"merge_poll": "load"}},
}


def edit_line(line: str, changes: dict) -> str:
    head, tune = line.split(", tune: ")
    for field, value in changes.items():
        pat = re.compile(rf", {field}: [^,}}]+")
        if pat.search(head):
            head = pat.sub("" if value is None else f", {field}: {value}", head)
            assert (value is None) == (f" {field}:" not in head), (field, head)
        else:
            assert value is not None, f"{field} absent: {head}"
            head += f", {field}: {value}"
    return head + ", tune: " + tune


def main() -> None:
    for name, per_shape in SWITCHES.items():
        text = SPEC
        for key, changes in per_shape.items():
            batch, kv = K[key]
            lines = [ln for ln in text.splitlines() if ln.startswith(f"  - {{batch: {batch}, kv_len: {kv},")]
            assert len(lines) == 1, key
            text = text.replace(lines[0], edit_line(lines[0], changes))
        assert text != SPEC
        head = f"# Thirty-first session, timing variant of specs/h200.yaml: {name} ({per_shape}).\n"
        (OUT / f"h200-sw-{name}.yaml").write_text(head + text)
        print(name)


if __name__ == "__main__":
    main()
