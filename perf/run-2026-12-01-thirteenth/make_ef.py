"""Make an L2-cache-hint variant of a submission (thirteenth session, an
experiment): its attention kernels renamed mla_* -> mla<TAG>_* (TAG: OUT's
name without its extension and underscores; each variant its own cache key,
else Triton's cache gives every variant the first one's cubin), and a header
that rewrites their PTX so that TMA loads carry an L2 cache policy (Gluon
3.6's TMA copy takes no cache hint).

    python3 make_ef.py build/h200/submission.py OUT.py RULE[,RULE]

RULE: DIMS=PRIORITY[@FRACTION]. DIMS: the copies it applies to, 23 (both),
3 (the latent's 3-D copies) or 2 (the rope's 2-D copies); PRIORITY:
createpolicy.fractional's priorities, e.g. evict_first, evict_last,
evict_normal, or evict_last.L2::evict_first (primary, then secondary);
FRACTION: the share of accesses the primary applies to (default 1.0).
Run 4's variants: ef 23=evict_first, en 23=evict_normal, el 23=evict_last,
ef50 23=evict_first@0.5, h3 3=evict_first, h2 2=evict_first.
"""
import re
import sys
from pathlib import Path

HEADER = '''
import re as _ef_re
from triton import knobs as _ef_knobs
_EF_RULES = @RULES@
def _ef_rewrite(ptx):
    if ".entry mlaTAG_" not in ptx:
        return ptx
    for dims, (priority, fraction) in _EF_RULES.items():
        tma = _ef_re.compile(r"(@%p\\d+ )?(cp\\.async\\.bulk\\.tensor\\.[" + dims + r"]d\\.shared::cluster\\.global\\.mbarrier::complete_tx::bytes) (\\[[^;]*);")
        ptx = tma.sub(lambda m: "{ .reg .b64 %l2pol; createpolicy.fractional.L2::" + priority + ".b64 %l2pol, " + fraction + "; "
                      + (m.group(1) or "") + m.group(2) + ".L2::cache_hint " + m.group(3) + ", %l2pol; }", ptx)
    return ptx
_ef_prev = _ef_knobs.runtime.add_stages_inspection_hook
def _ef_hook(backend, stages, options, language, capability):
    if _ef_prev is not None:
        _ef_prev(backend, stages, options, language, capability)
    make_ptx = stages["ptx"]
    stages["ptx"] = lambda src, md: _ef_rewrite(make_ptx(src, md))
_ef_knobs.runtime.add_stages_inspection_hook = _ef_hook
'''


def main():
    src = Path(sys.argv[1]).read_text()
    rules = {}
    for rule in sys.argv[3].split(","):
        dims, _, rest = rule.partition("=")
        priority, _, fraction = rest.partition("@")
        rules[dims] = (priority, fraction or "1.0")
    tag = Path(sys.argv[2]).stem.replace("_", "")
    src = re.sub(r"\bmla_b", f"mla{tag}_b", src)
    # after the imports: before the first blank line following "import triton"
    i = src.index("\n\n", src.index("import triton"))
    src = src[:i] + "\n" + HEADER.replace("@RULES@", repr(rules)).replace("TAG", tag) + src[i:]
    Path(sys.argv[2]).write_text(src)


if __name__ == "__main__":
    main()
