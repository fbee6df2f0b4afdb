"""How fast does an H200 SM convert? Issue rate of one instruction kind, in
lane-operations per clock per SM, from a loop of 8 independent chains per
thread (PTX in a Triton inline asm), 64 warps an SM.

    python3 cvt_rate.py OUT.json

Kinds: cvt.rn.f16x2.e4m3x2 (fp8 pair -> fp16 pair, the consumer's V
conversion, SASS F2FP...UNPACK_B), cvt.rn.f16x2.f32 (two fp32 -> fp16 pair,
F2FP.PACK_AB), lop3 (one bitwise op), the fp8 -> fp16 conversion of 4 bytes
done with bit operations (7 integer ops: magnitude and sign moved into fp16
positions, the value scaled by 2^-8), and fma.rn.f16x2 (HFMA2).
"""
import json
import sys

import torch
import triton
import triton.language as tl

ITERS = 4096
CHAINS = 8


def body(kind):
    lines = []
    for c in range(CHAINS):
        if kind == "cvt_e4m3x2":
            lines.append(f"mov.b32 {{lo{c}, hi{c}}}, a{c}; cvt.rn.f16x2.e4m3x2 a{c}, lo{c};")
        elif kind == "cvt_f32x2":
            lines.append(f"mov.b32 f{c}, a{c}; cvt.rn.f16x2.f32 a{c}, f{c}, g{c};")
        elif kind == "lop3":
            lines.append(f"lop3.b32 a{c}, a{c}, b{c}, 0x5a5a5a5a, 0x96;")
        elif kind == "bits":
            # 4 fp8 bytes of a -> (b1, b3) and (b0, b2) as fp16 pairs, x 2^-8
            lines.append(f"and.b32 t{c}, a{c}, 0x7F007F00; shr.b32 t{c}, t{c}, 1; "
                         f"lop3.b32 u{c}, a{c}, 0x80008000, t{c}, 0xea; "
                         f"shl.b32 t{c}, a{c}, 8; and.b32 v{c}, t{c}, 0x7F007F00; shr.b32 v{c}, v{c}, 1; "
                         f"lop3.b32 v{c}, t{c}, 0x80008000, v{c}, 0xea; xor.b32 a{c}, u{c}, v{c};")
        elif kind == "hfma2":
            lines.append(f"fma.rn.f16x2 a{c}, a{c}, b{c}, b{c};")
    return " ".join(lines)


def asm(kind):
    regs = " ".join(f".reg .b32 a{c}, b{c}, t{c}, u{c}, v{c}; .reg .b16 lo{c}, hi{c}; .reg .f32 f{c}, g{c};"
                    for c in range(CHAINS))
    init = " ".join(f"add.u32 a{c}, $1, {c * 977}; xor.b32 b{c}, $1, {c * 131}; mov.b32 g{c}, b{c};"
                    for c in range(CHAINS))
    fold = " ".join(f"xor.b32 $0, $0, a{c};" for c in range(CHAINS))
    return ("{ " + regs + " .reg .u32 n; .reg .pred p; " + init + " mov.u32 n, 0; "
            f"LOOP_{kind}: " + body(kind) + f" add.u32 n, n, 1; setp.lt.u32 p, n, {ITERS}; @p bra LOOP_{kind}; "
            "mov.b32 $0, 0; " + fold + " }")


def make(kind):
    text = asm(kind)

    @triton.jit
    def kern(X, Y):
        offs = tl.program_id(0) * 128 + tl.arange(0, 128)
        x = tl.load(X + offs)
        y = tl.inline_asm_elementwise(ASM, "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)
        tl.store(Y + offs, y)

    kern.fn.__globals__["ASM"] = tl.constexpr(text)
    return kern


def main():
    out = sys.argv[1]
    props = torch.cuda.get_device_properties(0)
    sms = props.multi_processor_count
    programs = sms * 16          # 16 programs of 4 warps an SM: 64 warps
    x = torch.randint(0, 2 ** 31 - 1, (programs * 128,), dtype=torch.int32, device="cuda")
    y = torch.empty_like(x)
    res = {"sms": sms, "iters": ITERS, "chains": CHAINS, "programs": programs}
    clock_ghz = None
    try:
        import pynvml  # noqa: F401
    except ImportError:
        pass
    for kind in ("lop3", "cvt_e4m3x2", "cvt_f32x2", "bits", "hfma2"):
        k = make(kind)
        k[(programs,)](x, y, num_warps=4)
        torch.cuda.synchronize()
        times = []
        for _ in range(20):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            k[(programs,)](x, y, num_warps=4)
            e.record()
            torch.cuda.synchronize()
            times.append(s.elapsed_time(e) * 1e3)
        us = sorted(times)[len(times) // 2]
        lane_ops = programs * 128 * ITERS * CHAINS
        res[kind] = {"us": us, "lane_ops_per_us_per_sm": lane_ops / us / sms}
        print(kind, f"{us:.1f} us", f"{lane_ops / us / sms:.0f} lane-op/us/SM (x8 iters per chain body)", flush=True)
    json.dump(res, open(out, "w"), indent=1)


if __name__ == "__main__":
    main()
