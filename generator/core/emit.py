"""Stage 4: write generated files atomically, and compare them with what is on disk.

A build renders every spec first and writes nothing unless all succeed; each
file is written to a temporary name beside its target and renamed over it, so
a failed or interrupted build never leaves a half-written submission.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from generator.core import safety
from generator.errors import GenError, UserError
from generator.core.planner import build_plan
from generator.core.render import render
from generator.core.spec import load_spec

SPEC_DIR = Path("specs")
BUILD_DIR = Path("build")


@dataclass(frozen=True)
class Output:
    """One rendered file: where it goes (path as shown, dest resolved inside
    the build folder), its source, and where in the spec its name comes from."""

    spec_path: str
    path: Path
    source: str
    dest: Path | None = None
    # "specs/x.yaml:3: target.name": what a failure after rendering points at.
    where: str = ""
    # The spec file as given (spec_path is only how it is shown).
    spec_file: Path | None = None

    @property
    def target(self) -> Path:
        return self.dest if self.dest is not None else self.path

    def _read(self) -> tuple[str | None, bool]:
        """(text on disk or None when absent, whether it was not valid UTF-8)."""
        try:
            data = safety.read_regular_file(self.target)
        except FileNotFoundError:
            return None, False
        except IsADirectoryError:
            raise UserError(self.problem(f"cannot read {self.shown}: it is a folder")) from None
        except safety.NotRegularFile as exc:
            raise UserError(self.problem(f"cannot read {self.shown}: {exc.strerror} "
                                         "(remove it)")) from None
        except OSError as exc:
            raise UserError(self.problem(f"cannot read {self.shown}: {_reason(exc)}")) from None
        try:
            return data.decode("utf-8"), False
        except UnicodeDecodeError:
            return data.decode("utf-8", errors="replace"), True

    def on_disk(self) -> str | None:
        return self._read()[0]

    @property
    def corrupt(self) -> bool:
        """The file on disk is not UTF-8 text (a build replaces it)."""
        return self._read()[1]

    @property
    def stale(self) -> bool:
        old, corrupt = self._read()
        return corrupt or old != self.source

    @property
    def shown(self) -> str:
        return safety.printable(self.path.as_posix())

    def problem(self, message: str) -> str:
        return f"{self.where}: {message}" if self.where else message

    def diff(self) -> str:
        """The unified diff a build would make ('' when none), safe to print.

        Lines are split at "\n" only (str.splitlines also splits at form
        feeds, \x1c-\x1e, \x85 and \u2028, which a file may hold inside a
        line) and compared without their terminators, so that a file with
        CRLF line endings or without a final newline shows only its changed
        lines; the header names such a difference. Every control character
        of a shown line (an old file's terminal escapes) is printed escaped."""
        old, corrupt = self._read()
        if old == self.source and not corrupt:
            return ""
        old_lines, old_notes = _diff_lines(old or "")
        new_lines, _ = _diff_lines(self.source)
        notes = (["not UTF-8 text"] if corrupt else []) + (old_notes if old is not None else [])
        note = f" ({', '.join(notes)})" if notes else ""
        out = [f"--- a/{self.shown}{note}", f"+++ b/{self.shown}"]
        hunks = list(difflib.unified_diff(old_lines, new_lines, lineterm=""))[2:]
        if not hunks:
            out.append("# only the line endings differ")
        out += [safety.printable_line(line) for line in hunks]
        return "\n".join(out) + "\n"


def _diff_lines(text: str) -> tuple[list[str], list[str]]:
    """text's lines (split at "\n", without terminators) and what sets its line
    endings apart from a generated file's: CRLF line endings, no final newline."""
    notes = []
    if "\r\n" in text:
        notes.append("CRLF line endings")
        text = text.replace("\r\n", "\n")
    if text and not text.endswith("\n"):
        notes.append("no newline at end of file")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines, notes


def _reason(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def default_specs() -> list[Path]:
    specs = sorted(SPEC_DIR.glob("*.yaml"))
    if not specs:
        raise UserError(f"no specs found in {SPEC_DIR}/ (run from the project root or pass --spec)")
    return specs


def _display_path(path: Path) -> str:
    """The spec path as the header shows it: relative to the working directory
    when inside it, so that the output does not depend on where the repo lives."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.name


def render_outputs(spec_paths: list[Path], build_dir: Path = BUILD_DIR) -> list[Output]:
    """Render every spec (in memory); raises on the first invalid spec, writes nothing.

    Each output path is build_dir/<target.name>/submission.py resolved (symlinks
    followed): it must stay inside the resolved build folder, and no two specs
    may map to the same file."""
    outputs: list[Output] = []
    seen: dict[str, str] = {}
    for spec_path in spec_paths:
        spec = load_spec(spec_path)
        spec = dataclasses.replace(spec, path=_display_path(Path(spec_path)))
        where = f"{spec.path}:{spec.name_line}: target.name" if spec.name_line else spec.path
        path = build_dir / spec.target.name / "submission.py"
        try:
            dest = safety.output_path(build_dir, spec.target.name)
        except (ValueError, OSError) as exc:
            raise UserError(f"{where}: {spec.target.name!r}: {exc}") from None
        key = os.path.normcase(str(dest)).casefold()
        if key in seen:
            raise UserError(f"{where}: target {spec.target.name!r} writes {path.as_posix()}, "
                            f"which is also built by {seen[key]}")
        seen[key] = spec.path
        try:
            source = render(build_plan(spec), spec)
        except UserError:
            raise
        except GenError as exc:
            raise GenError(f"{spec.path}: {exc}") from None
        outputs.append(Output(spec.path, path, source, dest, where, Path(spec_path)))
    return outputs


def _file_mode() -> int:
    """0666 less the process umask: the mode an ordinary file gets (mkstemp's is 0600)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _stage(path: Path, text: str, mode: int | None = None) -> Path:
    """Write text to a new temporary file beside path, with `mode` (default:
    the ordinary file mode); return its name. Creates the parent folders."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, _file_mode() if mode is None else mode)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def write_atomic(path: Path, text: str, mode: int | None = None) -> None:
    """Replace path with text (temp file + rename); the new file gets `mode`,
    by default the ordinary file mode."""
    tmp = _stage(path, text, mode)
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_outputs(outputs: list[Output]) -> list[Output]:
    """Write the outputs that differ from disk (or are not UTF-8); return those written.

    All or nothing: every new file is first written in full to a temporary
    file beside its destination (which proves each folder writable and each
    destination a file), and only then are they renamed over their targets."""
    written = [o for o in outputs if o.stale]
    # The last gate: the bytes written must run as the text reads (no source
    # encoding declared in their first lines; the same program compiled from
    # bytes as parsed from text), whatever produced the source.
    for o in written:
        problem = safety.source_bytes_problem(o.source)
        if problem:
            raise UserError(o.problem(f"refusing to write {o.shown}: {problem}"))
    staged: list[tuple[Output, Path]] = []
    try:
        for o in written:
            if o.target.is_dir():
                raise UserError(o.problem(f"cannot write {o.shown}: it is a folder"))
            try:
                staged.append((o, _stage(o.target, o.source)))
            except OSError as exc:
                raise UserError(o.problem(f"cannot write {o.shown}: {_reason(exc)}")) from None
        for i, (o, tmp) in enumerate(staged):
            try:
                os.replace(tmp, o.target)
            except OSError as exc:
                done = ", ".join(p.shown for p, _ in staged[:i]) or "none"
                raise UserError(o.problem(f"cannot replace {o.shown}: {_reason(exc)} "
                                          f"(already replaced: {done})")) from None
    finally:
        for _, tmp in staged:
            tmp.unlink(missing_ok=True)
    return written
