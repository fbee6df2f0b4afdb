"""The barrier variant (twenty-fourth session; timing and outputs only), as
a checked text edit of a build:

    python3 mkbar.py BUILD.py OUT.py

Triton's barrier pass puts CTA barriers (bar.sync 0) where one allocation
is touched twice, even at regions that cannot overlap. Two kinds in the
tile loop guard nothing:
- between a tile's two TMA copies (the latent chunks' 3-D copy and the rope
  chunk's 2-D copy: disjoint regions, issued by one thread);
- right before an mbarrier wait for the next tile (the ring's mbarriers are
  one allocation: the refill armed another stage's).
The variant marks the attention body's PTX (a comment in an asm, which also
gives its kernels their own cache keys) and adds a stages hook, beside the
build's L2 hook, that drops those barriers from marked kernels' PTX.
"""

import sys
from pathlib import Path

BODY = '''    """
    NUM_WARPS: gl.constexpr = gl.num_warps()
'''
MARK = '''    """
    gl.inline_asm_elementwise("// mla-drop-bars\\n\\tmov.b32 $0, $1;", "=r,r", [gl.program_id(0)],
                              dtype=gl.int32, is_pure=False, pack=1)
    NUM_WARPS: gl.constexpr = gl.num_warps()
'''
HOOK_AT = "\n\n@gluon.jit\ndef _gl_mark_l2_policy("
HOOK = r'''

# (variant) drop the barrier pass's false barriers from marked kernels
_GL_BAR_TMA = re.compile(
    r"(cp\.async\.bulk\.tensor\.3d\.[^\n]*\n(?:(?![^\n]*(?:bar\.|fence|st\.shared|ld\.shared|wgmma|mbarrier))[^\n]*\n)*?)"
    r"\s*bar\.sync \t0;\n"
    r"((?:(?![^\n]*(?:bar\.|fence|st\.shared|ld\.shared|wgmma|mbarrier))[^\n]*\n)*?[^\n]*cp\.async\.bulk\.tensor\.2d\.)")
_GL_BAR_WAIT = re.compile(r"\tbar\.sync \t0;\n(?=\t// begin inline asm\n\s*\{\n\s*@!?%p\d+ bra\.uni skipWait;\n"
                          r"\s*\.reg \.pred complete;\n\s*waitLoop:\n\s*mbarrier\.try_wait)")
GL_BARS_DROPPED = []


def _gl_drop_bars(ptx):
    if "// mla-drop-bars" not in ptx:
        return ptx
    ptx, a = _GL_BAR_TMA.subn(lambda m: m[1] + m[2], ptx)
    ptx, b = _GL_BAR_WAIT.subn("", ptx)
    GL_BARS_DROPPED.append((a, b))
    return ptx


def _gl_drop_bars_hook(previous):
    def hook(backend, stages, options, language, capability):
        if previous is not None:
            previous(backend, stages, options, language, capability)
        make_ptx = stages.get("ptx")
        if make_ptx is not None:
            stages["ptx"] = lambda src, metadata: _gl_drop_bars(make_ptx(src, metadata))

    hook.mla_drop_bars = True
    return hook


if not getattr(knobs.runtime.add_stages_inspection_hook, "mla_drop_bars", False):
    knobs.runtime.add_stages_inspection_hook = _gl_drop_bars_hook(knobs.runtime.add_stages_inspection_hook)
'''


def main():
    src = Path(sys.argv[1]).read_text()
    assert src.count(BODY) == 1 and src.count(HOOK_AT) == 1
    Path(sys.argv[2]).write_text(src.replace(BODY, MARK).replace(HOOK_AT, HOOK + HOOK_AT))


if __name__ == "__main__":
    main()
