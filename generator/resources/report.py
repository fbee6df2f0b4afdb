"""The resource report: what each kernel of a build costs on its target GPU.

For every Triton and Gluon launch of build/<target>/submission.py, compiled
ahead of time for the target's architecture (generator/resources/aot.py):
registers, spills, local or scratch memory, shared memory / LDS, the occupancy
they allow (generator/core/occupancy.py), the MMA instructions used and, on
sm90, whether ptxas serialised the kernel's wgmmas. Kept beside the build
as build/<target>/resources.json: deterministic (sorted keys, no times, no
absolute paths) so that a PR shows how a retune changes the kernels.

The figures belong to one Triton version: a target's spec names the version
it runs (target.triton_version) and the report refuses another one unless
asked (then it only prints). resources.json stores the hash of the submission
it describes, so `gen build --check` sees a stale report without compiling;
`gen resources --check` (CI) compiles again and compares.

The CI rules (RULES): a keyed runner's kernel that spills fails the report
unless its spec entry carries `allow_spills: <reason>`; one whose wgmmas ptxas
serialises (sm90, warnings C7514/C7515) fails unless the entry carries
`allow_serialized_wgmma: <reason>`. The fallback's figures are shown, never
failed by those. Any kernel that fits no SM (CU) at all, 0 blocks, fails,
the fallback's too, with no waiver.

This module needs neither torch nor Triton (`gen build --check` reads its
staleness check); building a report imports aot, which needs both.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from dataclasses import dataclass
from typing import Callable

from generator.core import registry
from generator.core.occupancy import ARCHS, DEFAULT_ARCH, occupancy
from generator.core.safety import printable
from generator.errors import UserError

RESOURCES_NAME = "resources.json"
FORMAT = 2


@dataclass(frozen=True)
class Rule:
    """One CI rule of the report: what fails a keyed runner's kernel, and the
    spec field (registry.WAIVERS) whose reason waives it."""

    waiver: str
    broken: Callable[[dict], bool]
    says: Callable[[dict, dict], str]  # (row, report) -> what is wrong
    fix: str


RULES = (
    Rule("allow_spills", lambda r: r["spills"],
         lambda r, rep: f"spills {r['spilled_registers']} registers on {rep['arch']}",
         "change its tiles"),
    Rule("allow_serialized_wgmma", lambda r: r.get("wgmma_serialized", False),
         lambda r, rep: f"has its wgmma.mma_async instructions serialised by ptxas on "
                        f"{rep['arch']} ({'; '.join(r['wgmma_serialized_warnings'])})",
         "keep accumulators untouched while a wgmma is in flight (see ptxas's reason)"),
)
assert {r.waiver for r in RULES} == set(registry.WAIVERS), "a waiver without its rule"


def arch_of(target) -> str:
    """The architecture a spec's target compiles for."""
    return target.arch or DEFAULT_ARCH[target.platform]


def source_hash(source: str) -> str:
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


def resources_path(submission_path: Path) -> Path:
    return submission_path.parent / RESOURCES_NAME


def _entry_tag(key) -> str:
    if key is None:
        return "fallback"
    batch, kv_len, q_seq_len, heads = key
    tag = f"b{batch}_kv{kv_len}"
    return tag + (f"_q{q_seq_len}" if q_seq_len != 1 else "") + (f"_h{heads}" if heads != 16 else "")


def _spills(row: dict) -> bool:
    return row["spilled_registers"] > 0 or row.get("sgpr_spills", 0) > 0


# ---------------------------------------------------------------------------
# Building the report
# ---------------------------------------------------------------------------


def check_triton_version(spec, installed: str, any_triton: bool) -> str | None:
    """None when the installed Triton is the one the spec names; a warning when
    it is not and any_triton allows it (or the spec names none)."""
    if not installed:
        raise UserError("the resource report needs triton (and torch) installed: "
                        "`make resources` sets up .venv-triton36 with the specs' version")
    wanted = spec.target.triton_version
    if wanted is None:
        return (f"{spec.path}: target {spec.target.name!r} names no triton_version; "
                f"figures are for the installed triton {installed}")
    if wanted == installed:
        return None
    if not any_triton:
        raise UserError(f"{spec.path}: target {spec.target.name!r} runs triton {wanted}, this "
                        f"environment has {installed}: the figures depend on the version (use "
                        f"`make resources`, or --any-triton to print this version's figures)")
    return (f"{spec.path}: figures for triton {installed}, not the target's {wanted} "
            "(--any-triton)")


def build_report(spec, submission_path: Path, source: str, *, jobs: int, installed: str) -> dict:
    """Compile every Triton launch of `source` for the spec's target; the report as data."""
    from generator.resources.aot import FALLBACK_PROBE, compile_build

    arch = ARCHS[arch_of(spec.target)]
    entries = {shape.key: shape for shape in spec.shapes}
    rows = compile_build(source, spec.target.fp8_format, arch.name, jobs)
    for row in rows:
        key = tuple(row["key"]) if row["key"] else None
        entry = entries[key] if key else spec.fallback
        row["keyed"] = key is not None
        for rule in RULES:
            reason = getattr(entry, rule.waiver)
            if reason:
                row[rule.waiver] = reason
        row["occupancy"] = occupancy(
            arch.name, registers=row["registers"], num_warps=row["num_warps"],
            shared_bytes=row["shared_bytes"] + row.get("static_shared_bytes", 0),
        ).as_dict(arch.name)
        row["spills"] = _spills(row)
    batch, kv_len, q_seq_len, heads = FALLBACK_PROBE
    return {
        "format": FORMAT,
        "target": spec.target.name,
        "spec": spec.path,
        "submission": submission_path.as_posix(),
        "submission_sha256": source_hash(source),
        "arch": arch.name,
        "gpu": arch.gpu,
        "compile_target": f"{arch.vendor}:{arch.triton_arch}:{arch.warp_size}",
        "triton": installed,
        "spec_triton": spec.target.triton_version,
        "fallback_probe": {"batch": batch, "kv_len": kv_len, "q_seq_len": q_seq_len,
                           "num_heads": heads},
        "kernels": rows,
    }


def to_json(report: dict) -> str:
    """Sorted keys, two-space indents, lists of numbers on one line: a retune
    shows as a few changed lines per kernel."""
    return _dump(report, "") + "\n"


def _dump(value, indent: str) -> str:
    inner = indent + "  "
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(k)}: {_dump(value[k], inner)}" for k in sorted(value)]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        return "[\n" + ",\n".join(inner + _dump(v, inner) for v in value) + f"\n{indent}]"
    return json.dumps(value, sort_keys=True)


def _cannot_run(row: dict, report: dict) -> str | None:
    """Why a kernel fits no SM (CU) of the report's architecture, or None: its
    occupancy is 0 blocks (workgroups), so every launch would fail."""
    occ = row.get("occupancy") or {}
    blocks = occ.get("blocks_per_sm", occ.get("workgroups_per_cu"))
    if blocks != 0:
        return None
    unit = "SM" if "blocks_per_sm" in occ else "CU"
    used = {"shared": f"{row['shared_bytes'] + row.get('static_shared_bytes', 0)} bytes of "
                      "shared memory",
            "lds": f"{row['shared_bytes']} bytes of LDS",
            "registers": f"{row['registers']} registers a thread",
            "warps": f"{row['num_warps']} warps", "waves": f"{row['num_warps']} waves"}
    why = " and ".join(used.get(part, part) for part in occ.get("limiter", "").split("+"))
    return f"fits no {unit} of {report['arch']} ({why})"


def violations(report: dict) -> list[str]:
    """One line per kernel that cannot run on the architecture at all (the
    fallback's too; no waiver), and per keyed runner's kernel that breaks a
    rule its entry does not waive."""
    out = []
    for row in report["kernels"]:
        cannot = _cannot_run(row, report)
        if cannot:
            out.append(f"{report['spec']}: {row['kernel']} (entry {_entry_tag(row['key'])}) "
                       f"{cannot} under triton {report['triton']}: change its tiles "
                       "(block_n, num_stages)")
        for rule in RULES:
            if row["keyed"] and rule.broken(row) and rule.waiver not in row:
                out.append(
                    f"{report['spec']}: {row['kernel']} (entry {_entry_tag(row['key'])}) "
                    f"{rule.says(row, report)} under triton {report['triton']}: {rule.fix}, "
                    f"or give the entry `{rule.waiver}: <reason>`")
    return out


def unused_allowances(report: dict) -> list[str]:
    """Entries that waive a rule although none of their kernels breaks it."""
    by_entry: dict[str, list[dict]] = {}
    for row in report["kernels"]:
        by_entry.setdefault(_entry_tag(row["key"]), []).append(row)
    return [f"{report['spec']}: entry {tag} has {rule.waiver} but none of its kernels needs it "
            f"on {report['arch']}: remove it"
            for tag, rows in by_entry.items() for rule in RULES
            if any(rule.waiver in r for r in rows) and not any(rule.broken(r) for r in rows)]


# ---------------------------------------------------------------------------
# Staleness without compiling (gen build --check)
# ---------------------------------------------------------------------------


def stale_reports(outputs) -> list[str]:
    """Reports beside the outputs that describe another submission than the one
    the specs produce now. A missing report is not stale here (gen resources
    --check, in CI, requires it)."""
    stale = []
    for o in outputs:
        path = resources_path(o.target)
        if not path.is_file():
            continue
        try:
            recorded = json.loads(path.read_text(encoding="utf-8")).get("submission_sha256")
        except (json.JSONDecodeError, AttributeError, UnicodeDecodeError, OSError):
            recorded = None
        if recorded != source_hash(o.source):
            shown = printable(resources_path(o.path).as_posix())
            stale.append(f"stale: {shown} (describes another {o.path.name} than "
                         f"{o.spec_path} produces; run `make resources`)")
    return stale


def triton_version() -> str:
    """The installed Triton's version, without importing it ("" when absent)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("triton")
    except PackageNotFoundError:
        return ""


def default_jobs() -> int:
    return max(1, min(os.cpu_count() or 1, 8))


# ---------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------


def _kib(n: int) -> str:
    return "0" if n == 0 else f"{n / 1024:.1f}K"


def print_report(report: dict, console) -> None:
    from rich.markup import escape
    from rich.table import Table

    sm90 = report["arch"] == "sm90"
    title = escape(f"{report['target']} ({report['spec']}): {report['gpu']}, {report['arch']}, "
                   f"triton {report['triton']}")
    table = Table(title=title, title_justify="left", show_lines=False)
    for name, justify in (
        ("kernel", "left"), ("entry", "left"), ("warps", "right"),
        ("regs" if sm90 else "VGPR+AGPR", "right"), ("spilled", "right"),
        ("local B" if sm90 else "scratch B", "right"), ("smem" if sm90 else "LDS", "right"),
        ("blocks/SM" if sm90 else "WG/CU", "right"), ("warps/SM" if sm90 else "waves/SIMD", "right"),
        ("occ.", "right"), ("limit", "left"),
    ) + ((("wgmma serialized", "left"), ("loop instr (BAR)", "right"), ("TMA loads (L2 hint)", "right"))
         if sm90 else ()) + (
        ("MMA (static count)", "left"),):
        table.add_column(name, justify=justify)
    for row in report["kernels"]:
        occ = row["occupancy"]
        regs = str(row["registers"]) if sm90 else f"{row['vgprs']}+{row['agprs']}"
        spilled = str(row["spilled_registers"])
        if row.get("sgpr_spills"):
            spilled += f" +{row['sgpr_spills']}s"
        spills_rule, serial_rule = RULES
        spilled = _flag(row, spills_rule, spilled)
        mma = ", ".join(f"{n} {op}" for op, n in sorted(row["mma"].items())) or "-"
        cells = [
            row["kernel"], _entry_tag(row["key"]), str(row["num_warps"]), regs, spilled,
            str(row["local_bytes"] if sm90 else row["scratch_bytes"]), _kib(row["shared_bytes"]),
            str(occ["blocks_per_sm"] if sm90 else occ["workgroups_per_cu"]),
            str(occ["warps_per_sm"] if sm90 else occ["waves_per_simd"]),
            f"{occ['fraction']:.1%}", occ["limiter"],
        ]
        if sm90:
            cells.append(_flag(row, serial_rule, "yes" if row["wgmma_serialized"] else "no"))
            loop = row.get("main_loop")
            cells.append(f"{loop['instructions']} ({loop['barriers']})" if loop else "-")
            tma = row.get("tma_loads", {})
            cells.append(f"{tma['loads']} ({tma['l2_hinted']})" if tma.get("loads") else "-")
        table.add_row(*cells, mma)
    console.print(table)
    for rule in RULES:
        allowed = {_entry_tag(r["key"]): r[rule.waiver] for r in report["kernels"]
                   if rule.broken(r) and rule.waiver in r}
        for tag, reason in allowed.items():
            console.print(f"  [yellow]{rule.waiver}[/] for {tag}: {escape(reason)}")


def _flag(row: dict, rule: Rule, text: str) -> str:
    """Red: a keyed kernel breaks the rule unwaived (CI fails); yellow: waived or the fallback."""
    if not rule.broken(row):
        return text
    failing = row["keyed"] and rule.waiver not in row
    return f"[{'red' if failing else 'yellow'}]{text}[/]"
