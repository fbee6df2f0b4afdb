"""`gen tune`: search each shape's space, keep records, write winners back.

For every selected shape: its candidates (generator/tune/space.py), each made
into spec text by editing the entry (generator/tune/specedit.py) and parsed by
the spec checker, exactly as `gen build` would read it; a candidate the spec
stage rejects is recorded with the checker's message and never built. The
rest is planned and rendered; the rendered kernel source keys its record
(generator/tune/records.py), and a recorded key is not measured again. New
candidates are measured (generator/tune/measure.py: the resource report on
the spec's own target, gen check's cases, gen bench's clock) in this process
or one worker per GPU (generator/tune/workers.py), the shapes' candidates
interleaved so that a time limit shares out evenly.

The rules that keep a spec safe (docs/tuning.md):

- Records are evidence, not orders. They spare re-measuring candidates
  already measured (losers stay losers), but a line may be forged, so the
  records alone never rewrite a spec: a shape's would-be winner and its
  current entry are measured again in this run, in this process, on one
  clock, one after the other, and only that re-measurement decides
  (generator/tune/decide.py). A JSON line that is not a record gen tune
  writes (a time that is not a finite positive number, a missing field) is a
  user error naming file:line; a line cut short by a crash is named and
  passed over; a clock that returns such a time fails its candidate.
- Records live outside the checkout by default ($XDG_CACHE_HOME/mla-gen/tune/
  <target>.jsonl, else ~/.cache/mla-gen/tune/<target>.jsonl), or where
  --records says.
- The resource report's gate runs in every mode, --interpret included.
- --interpret never rewrites a spec: it proves the machinery, its times mean
  nothing. A write-back needs a GPU of the spec's own platform and
  architecture (generator/tune/writeback.py); elsewhere the winners are
  reported and the spec stays as it is.
- Every path the run will write (the spec when it may be rewritten, the
  records, the plot) is checked before anything is measured.
- The spec is rewritten once, at the end, atomically; a symbolic link stays a
  link and the file keeps its mode. An interrupted or failed run leaves the
  spec as it was; its records stay for the next run.
"""

from __future__ import annotations

import dataclasses
import itertools
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from generator import __version__
from generator.core import registry
from generator.core.planner import build_plan, tag_of
from generator.core.spec import Spec, load_spec, parse_spec
from generator.errors import SpecError, UserError
from generator.tune import records as rec
from generator.tune.decide import Decision, confirm, decide
from generator.tune.measure import Job
from generator.destinations import check_destination
from generator.tune.space import Candidate, Space, candidates, space_for
from generator.tune.specedit import check_round_trip, check_spec_writable, edit_entries
from generator.tune.writeback import (Machine, refusal, report_refused, this_machine,
                                      write_back)

# A space larger than this needs --budget (or a narrower `tune:` entry):
# every candidate is checked and rendered before the first is timed.
MAX_UNBUDGETED = 4096


@dataclass(frozen=True)
class Prepared:
    """A candidate after the stages that need no device: its record key, and
    either the job that measures it or the verdict already reached."""

    candidate: Candidate
    key: tuple
    kernel_sha256: str
    job: Job | None
    status: str | None = None  # REJECTED or SKIPPED when decided without a device
    reason: str = ""


@dataclass(frozen=True)
class Options:
    budget: int | None = None  # new candidates measured per shape
    max_minutes: float | None = None
    gpus: int = 1
    interpret: bool = False
    seconds: float = 1.0  # the clock's budget per candidate
    records_path: Path | None = None
    plot_path: Path | None = None
    build_dir: Path = Path("build")


def _console() -> Console:
    return Console(width=None if sys.stdout.isatty() else 200, highlight=False)


def selected(spec: Spec, shapes: tuple[str, ...]) -> list[int]:
    """Indices of the entries --shapes names (all when empty); an unknown tag is an error."""
    tags = [tag_of(s) for s in spec.shapes]
    unknown = [s for s in shapes if s not in tags]
    if unknown:
        raise UserError(f"{spec.path}: --shapes {', '.join(unknown)}: no such entry "
                        f"(valid: {', '.join(tags)}; the fallback is not tuned)")
    return [i for i, tag in enumerate(tags) if not shapes or tag in shapes]


def cannot_run(backend: str, platform: str, interpret: bool) -> str | None:
    """Why a backend's candidate cannot run on this machine, or None."""
    b = registry.BACKENDS[backend]
    if interpret and not b.runs_on_cpu:
        return f"backend {backend} cannot run on the CPU (no interpreter); tune it on its GPU"
    if platform not in b.platforms:
        return f"backend {backend} runs on {', '.join(b.platforms)}, this machine is {platform}"
    if b.needs_aiter:
        from generator.gpu.check import _has_aiter

        if not _has_aiter():
            return f"backend {backend} needs aiter, which is not installed here"
    return None


def prepare(cand: Candidate, original: Spec, platform: str, fp: rec.Fingerprint,
            opts: Options, mini_key: tuple[int, int] | None) -> Prepared:
    """The device-free stages for one candidate: spec text, spec checker, plan, key."""
    text = original.text if cand.current else edit_entries(original.text,
                                                           {cand.index: cand.as_dict()})
    try:
        spec = parse_spec(text, original.path)
    except SpecError as exc:
        sha = rec.fields_sha256(cand.as_dict())
        return Prepared(cand, rec.Records.key(sha, cand.tag, fp), sha, None, rec.REJECTED,
                        "spec: " + "; ".join(i.message if i.path == "" else f"{i.path}: {i.message}"
                                             for i in exc.issues))
    shape = spec.shapes[cand.index]
    one = target_one = dataclasses.replace(spec, shapes=(shape,))
    why = cannot_run(shape.backend, platform, opts.interpret)
    if why is None:
        from generator.gpu.check import localize

        one, _ = localize(one, platform, opts.interpret)
        if mini_key is not None:
            batch, kv_len = mini_key
            one = dataclasses.replace(one, shapes=(shape.model_copy(
                update={"batch": batch, "kv_len": kv_len}),))
    plan = build_plan(one, interpret=opts.interpret and why is None)
    sha = rec.sha256(rec.kernel_source(plan, plan.runners[0]))
    key = rec.Records.key(sha, cand.tag, fp)
    if why is not None:
        return Prepared(cand, key, sha, None, rec.SKIPPED, why)
    return Prepared(cand, key, sha, Job(cand.tag, one, target_one, opts.interpret, opts.seconds))


def make_record(p: Prepared, spec: Spec, fp: rec.Fingerprint, opts: Options,
                outcome: dict, confirmation: bool = False) -> dict:
    measured = p.job.spec.shapes[0].key if p.job else None
    return {
        "spec": spec.path,
        "target": spec.target.name,
        "shape": p.candidate.tag,
        "measured_key": list(measured) if measured else None,
        "mode": "interpret" if opts.interpret else "gpu",
        **rec.fingerprint_fields(fp),
        "kernel_sha256": p.kernel_sha256,
        "fields": p.candidate.as_dict(),
        "was_current": p.candidate.current,
        "confirmation": confirmation,  # a re-measurement before a write-back
        "status": outcome["status"],
        "reason": outcome.get("reason", ""),
        "timing": outcome.get("timing"),
        "rel_err": outcome.get("rel_err"),
        "wall_s": outcome.get("wall_s"),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "gen": __version__,
    }


def _interleave(queues: list[list[Prepared]]) -> list[Prepared]:
    """Round robin over the shapes, so that a time limit spreads over all of them."""
    out = []
    for group in itertools.zip_longest(*queues):
        out += [p for p in group if p is not None]
    return out


def print_spaces(spec: Spec, spaces: list[Space], console: Console) -> None:
    """gen tune --dry-run: each shape's space, its size and its distinct entries."""
    table = Table(title=f"gen tune --dry-run: {spec.path}")
    for col in ("shape", "backend", "space", "points", "distinct entries"):
        table.add_column(col, justify="right" if col in ("points", "distinct entries") else "left")
    platform = spec.target.platform
    for space in spaces:
        shape = spec.shapes[space.index]
        distinct = sum(1 for _ in itertools.islice(candidates(shape, space, platform),
                                                   MAX_UNBUDGETED + 1))
        shown = f"{distinct}" if distinct <= MAX_UNBUDGETED else f"more than {MAX_UNBUDGETED}"
        axes = "\n".join(f"{k}: {', '.join(str(v).lower() if isinstance(v, bool) else str(v) for v in vals)}"
                         for k, vals in space.axes) or "(nothing to vary)"
        table.add_row(space.tag, shape.backend, f"{axes}\n[dim]{space.origin}[/]",
                      str(space.size), shown)
    console.print(table)


@dataclass(frozen=True)
class Setup:
    """What a run knows before it measures anything."""

    original: Spec
    indices: list[int]  # the selected shapes
    machine: Machine
    refused: str | None  # why this run may not rewrite the spec, or None
    records: rec.Records


def preflight(spec_path: str | Path, shapes: tuple[str, ...], opts: Options) -> Setup:
    """Everything checked before anything is measured: the spec (it loads, the
    shapes exist, it survives the round trip), the machine, whether the run may
    rewrite the spec, every path the run writes, every line of the records."""
    original = load_spec(spec_path)
    indices = selected(original, shapes)
    check_round_trip(original.text, original.path)
    machine = this_machine(opts.interpret, opts.gpus)
    refused = refusal(machine, original)
    records = _check_paths(Path(spec_path), original, opts, refused is None)
    return Setup(original, indices, machine, refused, records)


def run_tune(spec_path: str | Path, shapes: tuple[str, ...] = (), dry_run: bool = False,
             opts: Options = Options(), job_fn=None) -> list[Decision]:
    """Tune one spec; returns each shape's decision (nothing for --dry-run).

    job_fn (default: measure.run_job) measures one job; tests pass fakes."""
    console = _console()
    if dry_run:
        original = load_spec(spec_path)
        print_spaces(original, [space_for(original.shapes[i], i, tag_of(original.shapes[i]),
                                          original.target.platform, original.target.triton_options)
                                for i in selected(original, shapes)], console)
        return []
    setup = preflight(spec_path, shapes, opts)
    original, refused, records = setup.original, setup.refused, setup.records
    platform, fp = setup.machine.platform, setup.machine.fingerprint
    spaces = [space_for(original.shapes[i], i, tag_of(original.shapes[i]), original.target.platform,
                        original.target.triton_options) for i in setup.indices]
    for line in records.notes():
        console.print(f"note: {line}", markup=False)
    if refused:
        console.print(f"note: {original.path} will not be rewritten: {refused}", markup=False)
    mini = _miniature_keys(original) if opts.interpret else {}

    prepared: dict[int, list[Prepared]] = {}
    queues: list[list[Prepared]] = []
    for space in spaces:
        shape = original.shapes[space.index]
        backends = dict(space.axes).get("backend", (shape.backend,)) + (shape.backend,)
        whys = [cannot_run(b, platform, opts.interpret) for b in backends]
        if all(whys):
            console.print(f"{space.tag}: not tuned here: {whys[-1]}")
            prepared[space.index] = []
            queues.append([])
            continue
        if space.size > MAX_UNBUDGETED and opts.budget is None:
            raise UserError(f"{original.path}: {space.tag}: a space of {space.size} points; pass "
                            f"--budget N or give the entry a narrower `tune:` (gen tune --dry-run "
                            "shows each space)")
        done, queue = [], []
        for cand in candidates(shape, space, original.target.platform):
            if opts.budget is not None and len(queue) >= opts.budget:
                break
            p = prepare(cand, original, platform, fp, opts, mini.get(space.index))
            done.append(p)
            if records.get(p.key) is not None:
                continue
            if p.status == rec.SKIPPED:  # not a measurement: said, not recorded
                console.print(f"{p.candidate.tag} [{p.candidate}]: skipped: {p.reason}",
                              markup=False)
            elif p.job is None:  # rejected by the spec stage: recorded at once
                records.append(make_record(p, original, fp, opts,
                                           {"status": p.status, "reason": p.reason}))
            else:
                queue.append(p)
        prepared[space.index] = done
        queues.append(queue)
    jobs = _interleave(queues)
    recorded = sum(len(v) for v in prepared.values()) - len(jobs)
    console.print(f"{original.path}: {len(jobs)} candidates to measure on {fp.device} "
                  f"({recorded} already recorded or decided without running) -> {records.path}",
                  markup=False)

    deadline = time.monotonic() + 60 * opts.max_minutes if opts.max_minutes else None
    _measure(jobs, original, fp, opts, records, console, job_fn, deadline)

    # The records pick each shape's candidate; this run's re-measurement decides.
    decisions = [decide(space.tag, space.index,
                        [(p.candidate, records.get(p.key)) for p in prepared[space.index]
                         if records.get(p.key) is not None])
                 for space in spaces]
    decisions = [_confirm(d, prepared[d.index], original, fp, opts, records, console, job_fn,
                          deadline) if d.replace else d
                 for d in decisions]
    _print_decisions(decisions, console)
    if opts.plot_path:
        from generator.plot import plot_tune

        plot_tune(landscape(prepared, records, decisions), opts.plot_path,
                  title=f"gen tune: {original.path} on {fp.device}")
        console.print(f"plot: {opts.plot_path}", markup=False)
    if refused:
        report_refused(original, decisions, refused, console)
    else:
        write_back(Path(spec_path), original, decisions, opts.build_dir, console)
    return decisions


def _check_paths(spec_path: Path, original: Spec, opts: Options,
                 may_rewrite: bool) -> rec.Records:
    """Every path the run writes, checked before anything is measured; the
    records read (each line checked)."""
    if may_rewrite:
        check_spec_writable(spec_path)
    if opts.plot_path:
        from generator.plot import check_plot_path

        check_destination(opts.plot_path, "--plot")
        check_plot_path(opts.plot_path, "--plot")
    if opts.records_path:
        check_destination(opts.records_path, "--records")
        return rec.Records(opts.records_path)
    path = rec.default_path(original.target.name)
    check_destination(path, "the records file (default; --records F puts it elsewhere)")
    return rec.Records(path)


def _confirm(first: Decision, prepared: list[Prepared], spec: Spec, fp, opts: Options,
             records: rec.Records, console: Console, job_fn, deadline) -> Decision:
    """Measure first's winner and its shape's current entry again, in this
    process, one after the other on one clock; decide on those two."""
    from generator.tune.workers import run_jobs

    pair = [p for p in prepared if p.candidate.current]
    pair += [p for p in prepared if p.candidate is first.best_candidate]
    if len(pair) != 2 or any(p.job is None for p in pair):
        # Only a record says it ran (the spec stage rejects it, or it cannot run here).
        return dataclasses.replace(first, replace=False,
                                   why="cannot be measured again here (a record is no proof): kept")
    kwargs = {"job_fn": job_fn} if job_fn else {}
    fresh = []
    for job, outcome in run_jobs([p.job for p in pair], 1, opts.interpret, deadline, **kwargs):
        p = pair[0] if job is pair[0].job else pair[1]
        r = records.append(make_record(p, spec, fp, opts, outcome, confirmation=True))
        console.print("re-measured: " + _line(p, r), markup=False)
        fresh.append((p.candidate, r))
    return confirm(first, fresh)


# Under --interpret every candidate of a shape runs on one small stand-in key,
# fixed (not derived from the entry, so that a write-back does not change
# what the records were measured on): a few tiles and a tail per batch element.
INTERPRET_KV_LEN = 101


def _miniature_keys(spec: Spec) -> dict[int, tuple[int, int]]:
    return {i: (2 + i % 3, INTERPRET_KV_LEN) for i in range(len(spec.shapes))}


def _measure(jobs: list[Prepared], spec: Spec, fp, opts: Options, records: rec.Records,
             console: Console, job_fn, deadline: float | None) -> None:
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    from generator.tune.workers import run_jobs

    if not jobs:
        return
    by_job = {id(p.job): p for p in jobs}
    kwargs = {"job_fn": job_fn} if job_fn else {}
    done = 0
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                        console=console, transient=True)
    try:
        with progress:
            task = progress.add_task("measuring", total=len(jobs))
            for job, outcome in run_jobs([p.job for p in jobs], opts.gpus, opts.interpret,
                                         deadline, **kwargs):
                p = by_job[id(job)]
                r = records.append(make_record(p, spec, fp, opts, outcome))
                done += 1
                progress.update(task, advance=1, description=f"{p.candidate.tag}")
                progress.console.print(_line(p, r), markup=False)
    except BaseException:
        console.print(f"[red]interrupted[/red]: {spec.path} untouched; {done} new records kept "
                      f"in {records.path} (run again to resume)")
        raise
    if done < len(jobs):
        console.print(f"time limit ({opts.max_minutes:g} min): {done} of {len(jobs)} measured; "
                      "run again to resume")


def _line(p: Prepared, r: dict) -> str:
    if r["status"] == rec.OK:
        t = r["timing"]
        result = f"{t['mean_us']:.2f} us ±{t['sem_us']:.2f} ({t['runs']} runs)"
    else:
        result = f"{r['status']}: {r['reason']}"
    mark = " (current)" if p.candidate.current else ""
    return f"{p.candidate.tag}{mark} [{p.candidate}] {result}"


def landscape(prepared: dict[int, list[Prepared]], records: rec.Records,
              decisions: list[Decision]) -> dict[str, list[dict]]:
    """Per shape, each recorded candidate as the tune plot draws it."""
    out: dict[str, list[dict]] = {}
    for d in decisions:
        points = []
        for p in prepared[d.index]:
            r = records.get(p.key)
            if r is None:
                continue
            t = r.get("timing") or {}
            points.append({"label": str(p.candidate), "status": r["status"],
                           "mean_us": t.get("mean_us"), "sem_us": t.get("sem_us"),
                           "current": p.candidate.current,
                           "winner": d.best is r})
        out[d.tag] = points
    return out


def _print_decisions(decisions: list[Decision], console: Console) -> None:
    table = Table(title="gen tune: per shape")
    for col in ("shape", "current", "best candidate", "verdict"):
        table.add_column(col)
    for d in decisions:
        cur = d.current
        current = (f"{cur['timing']['mean_us']:.2f} us" if cur and cur["status"] == rec.OK
                   else (cur["status"] if cur else "-"))
        best = f"{d.best['timing']['mean_us']:.2f} us [{d.best_candidate}]" if d.best else "-"
        verdict = ("[green]replace[/]: " if d.replace else "keep: ") + escape(d.why)
        table.add_row(d.tag, current, escape(best), verdict)
    console.print(table)
