"""Dump one kernel's PTX and SASS (sm90, CPU compile): dumpasm.py FILE KERNEL OUTPREFIX"""
import subprocess, sys
from pathlib import Path
sys.path.insert(0, ".")
from generator.resources import aot
from generator.core.occupancy import ARCHS
src = Path(sys.argv[1]).read_text(); want = sys.argv[2]; out = sys.argv[3]
for l in aot.record_launches(src, "e4m3fn"):
    if l.kernel.__name__ == want:
        k = aot._compile(l, ARCHS["sm90"])
        Path(out + ".ptx").write_text(k.asm["ptx"])
        cubin = Path(out + ".cubin"); cubin.write_bytes(k.asm["cubin"])
        from triton.backends.nvidia.compiler import get_ptxas
        cuobjdump = Path(get_ptxas(90).path).with_name("cuobjdump")
        Path(out + ".sass").write_text(subprocess.run([str(cuobjdump), "-sass", str(cubin)], capture_output=True, text=True).stdout)
        break
