"""The `gen` command: a thin layer over the stages. User errors end here, in one
message on stderr without a traceback, exit code 2."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape

from generator import __version__
from generator.destinations import check_destination
from generator.errors import GenError, UserError
from generator.gpu.baselines import BASELINES

err_console = Console(stderr=True, highlight=False)

_SPEC_HELP = "Spec file (repeatable). Default: every specs/*.yaml."


def _specs(spec: tuple[str, ...]) -> list[Path]:
    from generator.core.emit import default_specs

    return [Path(s) for s in spec] if spec else default_specs()


def _per_spec(option: str, path: str | None, specs: list[Path]) -> list[Path | None]:
    """Where each spec's output file goes. One spec: the path as given. Several
    (one process times or checks them in turn): one file per spec, named after
    the path with the spec file's stem inserted, so that no run overwrites
    another's (out/bench.json -> out/bench.h200.json, out/bench.h200-mxfp4.json)."""
    if path is None:
        return [None] * len(specs)
    given = Path(path)
    if len(specs) == 1:
        return [given]
    out: list[Path | None] = []
    seen: dict[Path, Path] = {}
    for s in specs:
        mine = given.with_name(f"{given.stem}.{s.stem}{given.suffix}")
        if mine in seen:
            raise UserError(f"{option} {path}: {seen[mine]} and {s} would both write {mine} "
                            "(specs with one file name: run them separately)")
        seen[mine] = s
        out.append(mine)
    return out


# Optional modules -> the extra of pyproject.toml that installs them, per command
# (torch and triton: the test extra runs check, bench and tune; the
# resources extra pins the Triton the specs compile with).
_EXTRA_OF = {"matplotlib": "plot", "flashinfer": "flashinfer", "tvm_ffi": "flashinfer"}
_COMMAND_EXTRA = {"resources": "resources"}
_NEEDS_TORCH = ("torch", "triton", "numpy")


def missing_extra(exc: ModuleNotFoundError, command: str | None) -> str | None:
    """The user-facing message for a module an optional extra provides, or None
    (then it is a fault of gen, not of the installation)."""
    top = (exc.name or "").split(".")[0]
    if top in _NEEDS_TORCH:
        extra = _COMMAND_EXTRA.get(command or "", "test")
    elif top in _EXTRA_OF:
        extra = _EXTRA_OF[top]
    else:
        return None
    what = f"gen {command}" if command else "this command"
    hint = (" (or a torch and triton built for your GPU)" if extra == "test" else "")
    return (f"{what} needs the Python module {top!r}, which is not installed: install the "
            f"'{extra}' extra, e.g. pip install 'mla-gen[{extra}]' (from a checkout: "
            f"pip install -e '.[{extra}]'){hint}")


class _Group(click.Group):
    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except UserError as exc:
            err_console.print(f"[red]error:[/red] {escape(str(exc))}", markup=True,
                              soft_wrap=True)
            sys.exit(exc.exit_code)
        except GenError as exc:
            err_console.print(f"[red]gen failed:[/red] {escape(str(exc))}", markup=True,
                              soft_wrap=True)
            sys.exit(1)
        except (KeyboardInterrupt, click.exceptions.Exit, click.ClickException, SystemExit):
            raise
        except Exception as exc:
            missing = (missing_extra(exc, ctx.invoked_subcommand)
                       if isinstance(exc, ModuleNotFoundError) else None)
            if missing:
                # An optional extra not installed: the user's to fix, exit 2.
                err_console.print(f"[red]error:[/red] {escape(missing)}", markup=True,
                                  soft_wrap=True)
                sys.exit(UserError.exit_code)
            # Not the user's doing: say so in one line, exit 1; GEN_DEBUG=1 shows where.
            if os.environ.get("GEN_DEBUG"):
                raise
            first = (str(exc).splitlines() or [""])[0]
            err_console.print(f"[red]gen internal error[/red] (a bug in gen; GEN_DEBUG=1 shows "
                              f"the traceback): {type(exc).__name__}: {escape(first)}",
                              markup=True, soft_wrap=True)
            sys.exit(1)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="gen")
def main() -> None:
    """Generate MLA decode submissions from YAML specs, then check and time them.

    \b
    Typical loop:
      gen build                             specs/*.yaml -> build/<target>/submission.py
      gen status                            per entry: what checked and timed it, where
      gen check --spec specs/mi355x.yaml --interpret   correctness on a CPU (Triton entries)
      gen check --spec specs/h200.yaml      correctness on this GPU
      gen bench --spec specs/h200.yaml --json new.json   leaderboard-style timing
      gen tune --spec specs/h200.yaml       search each shape's space, write winners back
    \b
    The leaderboard (MI355X) through popcorn-cli:
      popcorn-cli submit --mode benchmark --no-tui -o lb.txt build/mi355x/submission.py
      gen results import lb.txt --spec specs/mi355x.yaml --json lb.json
      gen compare old.json lb.json          per shape: the change, and whether beyond noise
      gen plot lb.json -o lb.png            draw any stored result (no GPU needed)
    """


@main.command()
@click.option("--spec", "spec", multiple=True, type=click.Path(dir_okay=False), help=_SPEC_HELP)
@click.option("--build-dir", default="build", show_default=True, type=click.Path(file_okay=False),
              help="Where build/<target>/submission.py files go.")
@click.option("--check", "check_only", is_flag=True,
              help="Write nothing; exit 1 naming every file that differs from what the specs produce.")
@click.option("--diff", "show_diff", is_flag=True,
              help="Write nothing; print the unified diff a build would make (exit 1 when "
                   "there is one, as `diff` does).")
def build(spec, build_dir, check_only, show_diff):
    """Render each spec into build/<target>/submission.py.

    Every spec is validated and rendered before anything is written; files are
    replaced atomically and only when their content changes.
    """
    from generator.core.emit import render_outputs, write_outputs
    from generator.resources.report import stale_reports

    outputs = render_outputs(_specs(spec), Path(build_dir))
    if check_only or show_diff:
        stale = [o for o in outputs if o.stale]
        if show_diff:
            for o in stale:
                click.echo(o.diff(), nl=False)
        if check_only:
            for o in stale:
                why = "is not UTF-8 text" if o.corrupt else f"differs from what {o.spec_path} produces"
                click.echo(f"stale: {o.shown} ({why}; run `gen build`)", err=True)
            stale_resources = stale_reports(outputs)
            for line in stale_resources:
                click.echo(line, err=True)
            if stale or stale_resources:
                sys.exit(1)
            click.echo(f"up to date: {', '.join(o.shown for o in outputs)}")
        sys.exit(1 if stale else 0)
    corrupt = {o.path for o in outputs if o.corrupt}
    written = {o.path for o in write_outputs(outputs)}
    for o in outputs:
        state = "wrote" if o.path in written else "unchanged"
        note = ", replacing a file that was not UTF-8 text" if o.path in corrupt else ""
        click.echo(f"{state}: {o.shown} (from {o.spec_path}{note})")
    for line in stale_reports(outputs):
        click.echo(f"note: {line}")


@main.command()
@click.option("--spec", "spec", multiple=True, type=click.Path(dir_okay=False), help=_SPEC_HELP)
@click.option("--shapes", multiple=True, metavar="TAG",
              help="Only these entries (e.g. b32_kv8192, fallback). Repeatable.")
@click.option("--interpret", is_flag=True,
              help="Run on the CPU through Triton's interpreter, on small shapes of the same "
                   "structure (sets TRITON_INTERPRET=1).")
@click.option("--seed", default=1, show_default=True, help="First seed; each check draws fresh inputs.")
@click.option("--seeds", type=click.IntRange(min=1), default=None,
              help="Fresh inputs per case; the table shows the worst. Default: 8 on a GPU, "
                   "2 with --interpret (each interpreted call costs seconds).")
@click.option("--repeats", type=click.IntRange(min=1), default=None,
              help="Calls per case on the first seed's inputs, compared bit for bit (default 3). "
                   "A difference fails the case unless its entry says `deterministic: false`.")
@click.option("--allow-unrunnable", is_flag=True,
              help="Exit 0 even when some selected entries cannot run on this machine (aiter "
                   "off ROCm, gluon under --interpret); they are still listed.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False),
              help="Also write results as JSON (several specs: one file per spec, "
                   "F.<spec stem>.json).")
def check(spec, shapes, interpret, seed, seeds, repeats, allow_unrunnable, json_path):
    """Prove a generated submission correct on this GPU.

    For every spec shape, the contract's test shapes and generic inputs through
    the fallback (unequal and empty segments, q_seq_len 4, 32 heads, an unlisted
    batch size, large scores), each over several seeds: poisoned output, the
    leaderboard rule, a strict relative-L2 bound against float32 math on the
    same operands (the worst seed's error over the bound is the margin; above
    85% it is flagged "thin"), no NaN/inf; on the first seed's inputs, the same
    bits from every call and, on a GPU, from a CUDA graph's capture and replay.
    Ends with a summary per entry: passed, failed, or not runnable here.

    \b
    Exit code: 0 every selected entry passed; 1 a case failed; 3 nothing
    failed but some entries could not be checked here (0 with
    --allow-unrunnable).
    """
    from generator.gpu.check import run_checks
    from generator.gpu.check_report import EXIT_FAILED

    paths = _specs(spec)
    json_outs = _per_spec("--json", json_path, paths)
    for out in filter(None, json_outs):
        check_destination(out, "--json")
    codes = [run_checks(path, shapes=shapes, interpret=interpret, seed=seed, json_path=json_out,
                        seeds=seeds, repeats=repeats).exit_code(allow_unrunnable)
             for path, json_out in zip(paths, json_outs)]
    # A failure anywhere outranks an entry left unchecked.
    sys.exit(EXIT_FAILED if EXIT_FAILED in codes else max(codes))


@main.command()
@click.option("--spec", "spec", multiple=True, type=click.Path(dir_okay=False), help=_SPEC_HELP)
@click.option("--shapes", multiple=True, metavar="TAG", help="Only these entries. Repeatable.")
@click.option("--mode", type=click.Choice(["benchmark", "leaderboard"]), default="benchmark",
              show_default=True,
              help="benchmark: inputs made once per shape, up to 1000 runs. leaderboard: fresh "
                   "inputs before every timed call, each output checked, up to 100 runs.")
@click.option("--baseline", type=click.Choice(BASELINES), multiple=True,
              help="Also time this baseline on the same inputs, the same way (repeatable): torch "
                   "(naive bf16 matmuls) or flashinfer (FlashInfer's MLA decode on the bf16 KV; "
                   "the optional extra `pip install .[flashinfer]`).")
@click.option("--l2-clear-mib", type=int, default=None,
              help="Size of the buffer written before each timed call to clear the L2 cache. "
                   "Default: 8192 in benchmark mode, long enough to hide the runner's host "
                   "work as the leaderboard's clear does; 32768 in leaderboard mode, where the "
                   "host work between calls lets the GPU clock down and a short clear "
                   "under-reports (PERF.md); at most a quarter of the GPU's memory.")
@click.option("--max-seconds", default=10.0, show_default=True,
              help="Time budget per shape (the leaderboard's stop rule also applies).")
@click.option("--json", "json_path", type=click.Path(dir_okay=False),
              help="Write results as JSON (several specs: one file per spec, F.<spec stem>.json).")
@click.option("--compare", "compare_path", type=click.Path(exists=True, dir_okay=False),
              help="An earlier JSON: flag changes beyond run-to-run noise (every spec's shapes "
                   "against it, matched by shape).")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False),
              help="Draw each shape's time beside the floor and the baselines, % of HBM marked "
                   "(.png or .svg; needs the [plot] extra; several specs: one file per spec).")
def bench(spec, shapes, mode, baseline, l2_clear_mib, max_seconds, json_path, compare_path,
          plot_path):
    """Time a generated submission the way the leaderboard does, with the roofline.

    Several --spec are timed in turn by one process (same GPU, same clocks), each
    with its own table, JSON and plot.
    """
    from generator.gpu.bench import run_bench

    paths = _specs(spec)
    json_outs, plot_outs = _per_spec("--json", json_path, paths), _per_spec("--plot", plot_path, paths)
    for option, outs in (("--json", json_outs), ("--plot", plot_outs)):
        for out in filter(None, outs):
            check_destination(out, option)
    for path, json_out, plot_out in zip(paths, json_outs, plot_outs):
        result = run_bench(path, shapes=shapes, mode=mode, baselines=baseline,
                           l2_clear_mib=l2_clear_mib, max_seconds=max_seconds,
                           json_path=json_out, compare_path=compare_path)
        if plot_out:
            from generator.plot import plot_bench

            click.echo(f"plot: {plot_bench(result, plot_out)}")


@main.command()
@click.option("--spec", "spec", multiple=True, type=click.Path(dir_okay=False), help=_SPEC_HELP)
@click.option("--shapes", multiple=True, metavar="TAG", help="Only these entries. Repeatable.")
@click.option("--budget", type=click.IntRange(min=1), default=None,
              help="Measure at most N new candidates per shape (the current entry first, then "
                   "each one-field change, then the rest of the space).")
@click.option("--max-minutes", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Start no measurement (a winner's re-measurement included) after M "
                   "minutes; what is measured is recorded, and the next run resumes.")
@click.option("--gpus", type=click.IntRange(min=1), default=1, show_default=True,
              help="One worker process per GPU (with --interpret: per CPU worker).")
@click.option("--dry-run", is_flag=True, help="Print each shape's space and its size; run nothing.")
@click.option("--interpret", is_flag=True,
              help="Run the whole loop on the CPU through Triton's interpreter on small shapes "
                   "(proves the machinery; times mean nothing, so the spec is never rewritten; "
                   "candidates that cannot run on a CPU are skipped).")
@click.option("--records", "records_path", type=click.Path(dir_okay=False),
              help="Records file (JSONL, appended). Default: $XDG_CACHE_HOME/mla-gen/tune/"
                   "<target>.jsonl (~/.cache/... without XDG_CACHE_HOME).")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False),
              help="Draw each shape's candidates, failures, current entry and winner "
                   "(.png or .svg; needs the [plot] extra; several specs: one file per spec).")
@click.option("--seconds", default=1.0, show_default=True,
              help="The clock's time budget per candidate.")
@click.option("--build-dir", default="build", show_default=True, type=click.Path(file_okay=False),
              help="Where the build whose diff is shown lives.")
def tune(spec, shapes, budget, max_minutes, gpus, dry_run, interpret, records_path, plot_path,
         seconds, build_dir):
    """Search each shape's space, then write winners back into the spec.

    Every candidate is the spec with one entry changed: checked by the spec
    stage and the resource report, built, run through gen check's cases and
    timed with gen bench's clock; each result is appended to the records (a
    re-run skips what is recorded). A shape's fastest passing candidate replaces
    its entry only when, measured again in this run beside the entry, it beats
    it beyond bench's noise: records pick candidates, never decide alone. Only
    a GPU of the spec's own platform rewrites it (never --interpret); the spec
    is rewritten in place (comments, order, links and mode kept) and the spec
    diff and `gen build --diff` are printed. docs/tuning.md has the rules.
    """
    from generator.tune.tune import Options, preflight, run_tune

    paths = _specs(spec)
    runs = [(path, Options(budget=budget, max_minutes=max_minutes, gpus=gpus,
                           interpret=interpret, seconds=seconds,
                           records_path=Path(records_path) if records_path else None,
                           plot_path=plot, build_dir=Path(build_dir)))
            for path, plot in zip(paths, _per_spec("--plot", plot_path, paths))]
    if not dry_run:  # every spec's paths and records, before the first is measured
        for path, opts in runs:
            preflight(path, shapes, opts)
    for path, opts in runs:
        run_tune(path, shapes=shapes, dry_run=dry_run, opts=opts)


@main.group()
def results():
    """Bring leaderboard results back as gen bench's JSON (no GPU needed)."""


@results.command("import")
@click.argument("report", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "json_path", type=click.Path(dir_okay=False),
              help="Write the result as JSON, the shape `gen bench --json` writes.")
@click.option("--mode", type=click.Choice(["benchmark", "leaderboard"]), default=None,
              help="Which section to read: 'Benchmarks' (benchmark) or 'Ranked Benchmark' "
                   "(leaderboard). Default: the ranked one when the report has it.")
@click.option("--spec", "spec_path", type=click.Path(dir_okay=False),
              help="The spec the submitted file was built from: records its path and hash, and "
                   "each shape's runner, backend and KV format.")
def results_import(report, json_path, mode, spec_path):
    """Read what popcorn-cli printed for a benchmark or leaderboard run (a file,
    or - for stdin): per shape its mean, error, best and worst time, failed
    shapes as failed, the leaderboard's geomean score. Only the report's own
    blocks count, never text the submission printed. Save the report with
    `popcorn-cli submit ... --no-tui --output FILE`.
    """
    from generator.core.emit import write_atomic
    from generator.results.imported import to_result
    from generator.results.load import read_text
    from generator.results.popcorn import MAX_REPORT_BYTES, parse_report
    from generator.results.show import print_result

    text, shown = read_text(report, MAX_REPORT_BYTES, "a report")
    result = to_result(parse_report(text, shown), shown, mode, spec_path)
    print_result(result)
    if json_path:
        import json

        write_atomic(Path(json_path), json.dumps(result, indent=2) + "\n")
        click.echo(f"wrote: {json_path}")


@main.command()
@click.argument("old", type=click.Path(dir_okay=False))
@click.argument("new", type=click.Path(dir_okay=False))
def compare(old, new):
    """Per shape, how NEW's mean time differs from OLD's and whether beyond noise.

    Reads the JSON of `gen bench --json` or `gen results import --json` (no GPU,
    no torch). Noise: three combined standard errors, the larger within-run
    drift and a 2% run-to-run floor, never more than half the old time.
    """
    from generator.results.load import load_result
    from generator.results.show import print_changes

    print_changes(load_result(new), load_result(old), old, new)


@main.command()
@click.argument("result", type=click.Path(dir_okay=False))
@click.option("-o", "--output", "out_path", type=click.Path(dir_okay=False),
              help="The picture (.png or .svg). Default: RESULT with .png for .json.")
def plot(result, out_path):
    """Draw a stored result (gen bench or gen results import JSON): each shape's
    mean time beside the floor and the baselines where the result has them.
    No GPU needed; needs the plot extra (matplotlib)."""
    from generator.plot import plot_bench
    from generator.results.load import load_result

    data = load_result(result)
    click.echo(f"plot: {plot_bench(data, out_path or Path(result).with_suffix('.png'))}")


@main.command()
@click.option("--spec", "spec", multiple=True, type=click.Path(dir_okay=False), help=_SPEC_HELP)
@click.option("--perf", "perf_dir", default="perf", show_default=True,
              type=click.Path(file_okay=False),
              help="Where the stored gen check / gen bench / gen results import JSON files are.")
def status(spec, perf_dir):
    """Per entry of each spec: its backend and what validated it (the CPU
    interpreter, which GPU checked and timed it, which aiter its calls were
    checked against), and what never ran anywhere."""
    from generator.status import print_status, spec_status

    for path in _specs(spec):
        print_status(spec_status(path, Path(perf_dir)))


@main.command()
@click.option("--spec", "spec", multiple=True, type=click.Path(dir_okay=False), help=_SPEC_HELP)
@click.option("--build-dir", default="build", show_default=True, type=click.Path(file_okay=False),
              help="Where build/<target>/resources.json files go.")
@click.option("--write", "write", is_flag=True,
              help="Write build/<target>/resources.json where it changes.")
@click.option("--check", "check_only", is_flag=True,
              help="Write nothing; exit 1 naming every resources.json that differs (CI).")
@click.option("--json", "json_path", type=click.Path(dir_okay=False),
              help="Also write every target's report into this one JSON file.")
@click.option("--any-triton", is_flag=True,
              help="Print the figures of the installed Triton even where the spec names another "
                   "version (not with --write or --check).")
@click.option("--jobs", type=int, default=None,
              help="Compiler processes (default: CPU cores, at most 8).")
def resources(spec, build_dir, write, check_only, json_path, any_triton, jobs):
    """Compile each Triton and Gluon kernel of a build for its target GPU (no GPU
    needed) and report registers, spills, local/scratch and shared/LDS bytes,
    occupancy, MMAs and (sm90) whether ptxas serialised the wgmmas.

    Exit code 1 when a kernel fits no SM (CU) at all, when a keyed runner's
    kernel spills without its entry's `allow_spills: <reason>`, or has
    serialised wgmmas without its entry's `allow_serialized_wgmma: <reason>`,
    when a compile fails, or (--check) when a resources.json is stale.
    Needs torch and the Triton version the specs name (`make resources`).
    """
    import json

    from generator.core.emit import render_outputs, write_atomic
    from generator.core.spec import load_spec
    from generator.resources import report as res

    if write and check_only:
        raise UserError("--write and --check exclude each other")
    if any_triton and (write or check_only):
        raise UserError("--any-triton only prints: the committed reports are for the specs' version")
    installed = res.triton_version()
    console = Console(highlight=False)
    if not console.is_terminal:
        console.width = 240  # a log or CI: keep each kernel on one line
    reports, failures = [], []
    for o in render_outputs(_specs(spec), Path(build_dir)):
        spec_ = load_spec(o.spec_file)
        warning = res.check_triton_version(spec_, installed, any_triton)
        if warning:
            err_console.print(f"[yellow]warning:[/yellow] {escape(warning)}", soft_wrap=True)
        report = res.build_report(spec_, o.path, o.source, jobs=jobs or res.default_jobs(),
                                  installed=installed)
        reports.append(report)
        res.print_report(report, console)
        failures += res.violations(report)
        for line in res.unused_allowances(report):
            err_console.print(f"[yellow]note:[/yellow] {escape(line)}", soft_wrap=True)
        path, text = res.resources_path(o.target), res.to_json(report)
        shown = res.resources_path(o.path).as_posix()
        on_disk = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None
        if check_only and on_disk != text:
            failures.append(f"stale: {shown} (differs from what the compiler reports now; "
                            "run `make resources` and commit it)")
        elif write and on_disk != text:
            write_atomic(path, text)
            click.echo(f"wrote: {shown}")
    if json_path:
        Path(json_path).write_text(json.dumps(reports, indent=2, sort_keys=True) + "\n")
    for line in failures:
        err_console.print(f"[red]error:[/red] {escape(line)}", soft_wrap=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
