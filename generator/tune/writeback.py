"""Whether `gen tune` may rewrite a spec, and the rewrite itself.

A spec is rewritten only from measurements that stand for its own target:

- never under --interpret (the CPU interpreter's times say nothing about a
  GPU; it proves the machinery);
- only on a GPU of the spec's own platform (a cuda spec on an NVIDIA GPU, a
  rocm spec on an AMD GPU) and of the architecture it compiles for
  (target.arch, or the platform's default: sm90, gfx950), as torch reports
  the GPU here.

Anywhere else the run measures, records and reports its winners, and says
why the spec stays as it is. When a write-back is possible, the spec must be
writable before anything is measured (generator/tune/specedit.py). The
write-back itself happens once, at the end, all winners at once, through the
round trip that keeps comments and order; a symbolic link stays a link and
the file keeps its mode.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from generator.core.spec import Spec, parse_spec
from generator.errors import GenError, SpecError, UserError
from generator.resources.report import arch_of
from generator.tune.decide import Decision
from generator.tune.records import Fingerprint
from generator.tune.specedit import edit_entries, spec_diff, write_spec

VENDOR = {"cuda": "NVIDIA", "rocm": "AMD"}


@dataclass(frozen=True)
class Machine:
    """Where the candidates run."""

    platform: str  # cuda | rocm: the build candidates are localized to (cuda under --interpret)
    arch: str | None  # the GPU's architecture (sm90, gfx950, ...); None under --interpret
    fingerprint: Fingerprint
    interpret: bool


def _gpu_arch(index: int) -> str:
    """A GPU's architecture as the specs name it: sm<major><minor>, or gfx... on ROCm."""
    import torch

    props = torch.cuda.get_device_properties(index)
    if getattr(torch.version, "hip", None):
        return str(props.gcnArchName).split(":")[0]  # "gfx950:sramecc+:xnack-"
    return f"sm{props.major}{props.minor}"


def this_machine(interpret: bool, gpus: int) -> Machine:
    """The machine the candidates will run on: the CPU interpreter, or this
    host's GPUs (all of one architecture, and at least `gpus` of them)."""
    import torch

    if interpret:
        import os

        os.environ["TRITON_INTERPRET"] = "1"
        return Machine("cuda", None, Fingerprint.here(True), True)
    if not torch.cuda.is_available():
        raise UserError("gen tune needs a GPU (none found); --interpret runs the loop on the "
                        "CPU through Triton's interpreter")
    if gpus > torch.cuda.device_count():
        raise UserError(f"--gpus {gpus}: this machine has {torch.cuda.device_count()}")
    archs = sorted({_gpu_arch(i) for i in range(gpus)})
    if len(archs) > 1:
        raise UserError(f"--gpus {gpus}: these GPUs are of different kinds ({', '.join(archs)}); "
                        "tune on GPUs of one kind (CUDA_VISIBLE_DEVICES / HIP_VISIBLE_DEVICES)")
    from generator.gpu.harness import this_platform

    return Machine(this_platform(), archs[0], Fingerprint.here(False), False)


def refusal(machine: Machine, spec: Spec) -> str | None:
    """Why this machine's measurements may not rewrite the spec, or None."""
    target = spec.target
    if machine.interpret:
        return ("--interpret runs the candidates on the CPU through Triton's interpreter: its "
                "times say nothing about a GPU, so it never rewrites a spec (it proves the "
                "machinery)")
    wanted = arch_of(target)
    gpu = f"{machine.fingerprint.device} ({VENDOR.get(machine.platform, machine.platform)}, " \
          f"{machine.arch})"
    if machine.platform != target.platform:
        return (f"target {target.name!r} is a {target.platform} spec ({wanted}) and this GPU is "
                f"{gpu}: only an {VENDOR.get(target.platform, target.platform)} GPU may rewrite "
                "it; tune it on its own GPU")
    if machine.arch != wanted:
        return (f"target {target.name!r} compiles for {wanted} and this GPU is {gpu}: only a "
                f"{wanted} GPU may rewrite it; tune it on its own GPU")
    return None


def write_back(path: Path, original: Spec, decisions: list[Decision], build_dir: Path,
               console: Console) -> None:
    """Rewrite the spec with every shape's winner, print the spec diff and the
    `gen build --diff` it implies."""
    from generator.core.emit import render_outputs

    changes = {d.index: d.best_candidate.as_dict() for d in decisions if d.replace}
    if not changes:
        console.print(f"{original.path}: unchanged (no candidate beat its entry beyond noise "
                      "when measured again)", markup=False)
        return
    new_text = edit_entries(original.text, changes)
    try:
        parse_spec(new_text, original.path)
    except SpecError as exc:  # each winner passed the checker alone: a bug if not together
        raise GenError(f"the tuned spec does not validate: {exc}") from None
    write_spec(path, original.text, new_text)
    console.print(f"rewrote {original.path}:", markup=False)
    console.print(spec_diff(original.text, new_text, original.path), markup=False, end="")
    console.print("gen build --diff (run `gen build` to write it):")
    for out in render_outputs([path], build_dir):
        if out.stale:
            console.print(out.diff(), markup=False, end="")


def report_refused(original: Spec, decisions: list[Decision], why: str,
                   console: Console) -> None:
    """Say that the spec stays as it is, why, and what would have changed."""
    winners = [d for d in decisions if d.replace]
    console.print(f"{original.path}: not rewritten: {why}", markup=False)
    for d in winners:
        console.print(f"  winner here for {d.tag}: [{d.best_candidate}] ({d.why})", markup=False)
