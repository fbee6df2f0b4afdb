"""`gen status`: per entry of a spec, what has validated it, where, and what
never ran anywhere.

For every entry (each keyed shape, then the fallback):
- its backend;
- the CPU: whether Triton's interpreter can run it (the registry's
  runs_on_cpu; `gen check --interpret`, and the test suite does so for every
  such runner of specs/*.yaml at small sizes of the same structure);
- a GPU check: the stored `gen check --json` files (a list of cases, each
  naming its runner, backend, Q mode and KV format). A file counts for a spec
  when every case in it agrees with the spec's runner of that name on backend,
  Q mode and KV format. Such a file records no device and no spec hash: they
  come from its sibling `gen bench --json` file (NAME-check.json beside
  NAME.json), when that one was made from this spec;
- a GPU timing: the stored `gen bench --json` and `gen results import --json`
  files made from this spec (their "spec" path, or their "spec_hash"), whose
  row for the entry's shape names the same backend (or none, as a report
  imported without --spec);
- aiter: for an entry whose backend calls aiter, the aiter commit of the
  target's runner stack (target.stack), against whose signatures the tests
  check the generated calls (tests/test_aiter_calls.py).
Evidence from the current build (the file's spec hash is the spec's hash now)
comes first, then the latest by the date in the file's path. An entry with
no CPU run, no GPU check and no GPU timing is listed as never run anywhere.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from generator.core import registry, safety
from generator.errors import UserError
from generator.results.load import check_result

_DATE_RE = re.compile(r"20\d\d-\d\d-\d\d")
# Stored results are a few kB each; a larger file is not one.
_MAX_BYTES = 16 << 20


@dataclass(frozen=True)
class Evidence:
    """One stored file's word on one entry."""

    file: str
    device: str | None
    # Made from the spec as it is now (same spec hash): True; from an earlier
    # version of it: False; not recorded (a check file without its bench file): None.
    exact: bool | None
    ok: bool
    detail: str
    date: str

    def describe(self) -> str:
        where = self.device or "device not recorded"
        build = {True: "this build", False: "an earlier build of the spec",
                 None: "build not recorded"}[self.exact]
        return f"{'' if self.ok else 'FAILED: '}{where}, {build}: {self.detail} ({self.file})"


@dataclass(frozen=True)
class EntryStatus:
    tag: str
    backend: str
    cpu: str | None  # how the CPU runs it, or None
    cpu_why_not: str
    check: Evidence | None
    timing: Evidence | None
    aiter: str | None  # what its aiter calls were checked against

    @property
    def never_ran(self) -> bool:
        return self.cpu is None and self.check is None and self.timing is None


@dataclass(frozen=True)
class SpecStatus:
    path: str
    target: str
    platform: str
    stack: dict
    spec_hash: str
    entries: tuple[EntryStatus, ...]
    files_read: int
    perf_dir: str


@dataclass(frozen=True)
class _Stored:
    path: Path
    shown: str
    data: object
    date: str


def _stored_files(perf_dir: Path) -> list[_Stored]:
    """Every JSON file under perf_dir that parses (others are not results)."""
    out = []
    if not perf_dir.is_dir():
        return out
    for path in sorted(perf_dir.rglob("*.json")):
        try:
            if path.stat().st_size > _MAX_BYTES:
                continue
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError, RecursionError):
            continue
        date = _DATE_RE.search(path.as_posix())
        out.append(_Stored(path, safety.printable(path.as_posix()), data,
                           date.group() if date else ""))
    return out


def _same_path(recorded, spec_path: str) -> bool:
    return isinstance(recorded, str) and os.path.normpath(recorded) == os.path.normpath(spec_path)


def _bench_results(files: list[_Stored], spec_path: str, spec_hash: str) -> dict[Path, dict]:
    """The stored timing results made from this spec, by path."""
    out = {}
    for f in files:
        if not isinstance(f.data, dict) or "rows" not in f.data:
            continue
        try:
            result = check_result(f.data, f.shown)
        except UserError:  # a malformed result is no evidence
            continue
        if result.get("spec_hash") == spec_hash or _same_path(result.get("spec"), spec_path):
            out[f.path] = result
    return out


def _best(found: list[Evidence]) -> Evidence | None:
    return max(found, key=lambda e: (e.exact is True, e.date, e.file), default=None)


def _timings(results: dict[Path, dict], files: list[_Stored], runner, spec_hash) -> Evidence | None:
    found = []
    shown = {f.path: f for f in files}
    for path, result in results.items():
        for row in result["rows"]:
            if row["shape"] != runner.tag or row.get("status", "ok") != "ok":
                continue
            if row.get("backend") not in (None, runner.backend):
                continue
            mode = result.get("mode") or "benchmark"
            source = result.get("source") or "gen bench"
            detail = f"{row['queued']['mean_us']:.2f} us, {source}, {mode} mode"
            found.append(Evidence(shown[path].shown, result.get("device"),
                                  result.get("spec_hash") == spec_hash, True, detail,
                                  shown[path].date))
    return _best(found)


def _check_cases(data) -> list[dict] | None:
    """A gen check JSON's cases: its "cases" (an object, as gen check writes
    it) or the whole file (a list, as gen check wrote it before its summary)."""
    if isinstance(data, dict):
        data = data.get("cases")
    if isinstance(data, list) and data and all(isinstance(c, dict) and "runner" in c
                                               and "case" in c for c in data):
        return data
    return None


def _checks(files: list[_Stored], results: dict[Path, dict], plan, runner,
            spec_hash: str) -> Evidence | None:
    by_name = {r.name: r for r in plan.all_runners}
    found = []
    for f in files:
        cases = _check_cases(f.data)
        if cases is None:
            continue
        agrees = all(
            c.get("runner") in by_name
            and (c.get("backend"), c.get("q_mode"), c.get("kv_format"))
            == (by_name[c["runner"]].backend, by_name[c["runner"]].q_mode,
                by_name[c["runner"]].kv_format)
            for c in cases)
        mine = [c for c in cases if c["runner"] == runner.name]
        if not agrees or not mine:
            continue
        sibling = results.get(f.path.with_name(f.path.name.replace("-check.json", ".json")))
        device = sibling.get("device") if sibling else None
        exact = sibling.get("spec_hash") == spec_hash if sibling else None
        failed = [c for c in mine if not c.get("ok")]
        detail = (f"{len(mine)} case{'s' if len(mine) != 1 else ''} passed" if not failed else
                  f"{len(failed)} of {len(mine)} cases failed")
        if not sibling:
            detail += "; same backend, Q mode and KV format (other fields not recorded)"
        found.append(Evidence(f.shown, device, exact, not failed, detail, f.date))
    return _best(found)


def _cpu(backend) -> tuple[str | None, str]:
    if backend.runs_on_cpu:
        return "Triton interpreter or torch on the CPU (gen check --interpret)", ""
    if backend.needs_aiter:
        return None, "needs aiter, on a ROCm GPU"
    return None, f"{'/'.join(backend.platforms)} GPU only"


def _aiter_note(backend, stack: dict) -> str | None:
    if not backend.needs_aiter:
        return None
    if stack.get("aiter"):
        date = f" ({stack['aiter_date']})" if stack.get("aiter_date") else ""
        return (f"calls bound to the signatures of aiter {stack['aiter']}{date} "
                "(tests/test_aiter_calls.py)")
    return "calls bound to tests/data/aiter_signatures.py (target.stack names no aiter commit)"


def spec_status(spec_path: str | Path, perf_dir: Path = Path("perf")) -> SpecStatus:
    """What validated each entry of the spec, from the registry, the spec's
    runner stack and the stored results under perf_dir."""
    from generator.core.emit import _display_path
    from generator.core.planner import build_plan
    from generator.core.render import inputs_hash
    from generator.core.spec import load_spec

    spec = load_spec(spec_path)
    shown = _display_path(Path(spec_path))
    spec_hash = inputs_hash(spec)
    plan = build_plan(spec)
    stack = spec.target.stack.model_dump(exclude_none=True) if spec.target.stack else {}
    files = _stored_files(perf_dir)
    results = _bench_results(files, shown, spec_hash)
    entries = []
    for runner in plan.all_runners:
        backend = registry.BACKENDS[runner.backend]
        cpu, why_not = _cpu(backend)
        timing = _timings(results, files, runner, spec_hash) if runner.key is not None else None
        entries.append(EntryStatus(runner.tag, runner.backend, cpu, why_not,
                                   _checks(files, results, plan, runner, spec_hash), timing,
                                   _aiter_note(backend, stack)))
    return SpecStatus(shown, spec.target.name, spec.target.platform, stack, spec_hash,
                      tuple(entries), len(files), safety.printable(perf_dir.as_posix()))


def stack_line(stack: dict) -> str:
    names = {"rocm": "ROCm", "cuda": "CUDA", "torch": "torch", "triton": "triton"}
    parts = [f"{names[k]} {v}" for k, v in stack.items() if k in names]
    if stack.get("aiter"):
        date = f" ({stack['aiter_date']})" if stack.get("aiter_date") else ""
        parts.insert(len(parts) - ("triton" in stack), f"aiter {stack['aiter']}{date}")
    return ", ".join(parts)


def print_status(status: SpecStatus) -> None:
    """One block per spec: a line per entry, then what never ran anywhere."""
    import sys

    from rich.console import Console
    from rich.markup import escape

    console = Console(width=None if sys.stdout.isatty() else 200, highlight=False)
    head = f"{status.path}: target {status.target} ({status.platform}), spec hash {status.spec_hash}"
    console.print(escape(head), style="bold")
    if status.stack:
        console.print(escape(f"  runner stack: {stack_line(status.stack)}"))
    console.print(escape(f"  evidence: {status.files_read} stored JSON files under "
                         f"{status.perf_dir}/"))
    for e in status.entries:
        console.print(escape(f"  {e.tag}: {e.backend}"), style="bold")
        console.print(escape(f"    CPU:        {e.cpu or 'cannot run (' + e.cpu_why_not + ')'}"))
        console.print(escape(f"    GPU check:  {e.check.describe() if e.check else 'none stored'}"))
        if e.tag != "fallback":
            console.print(escape(f"    GPU timing: "
                                 f"{e.timing.describe() if e.timing else 'none stored'}"))
        if e.aiter:
            console.print(escape(f"    aiter:      {e.aiter}"))
    never = [e for e in status.entries if e.never_ran]
    if never:
        console.print(escape(f"  never ran anywhere: {', '.join(e.tag for e in never)}"
                             + (" (only their aiter calls were checked, against aiter's "
                                "signatures)" if all(e.aiter for e in never) else "")),
                      style="yellow")
    else:
        console.print("  every entry ran somewhere")
