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

from generator.errors import UserError
from generator.core.planner import build_plan
from generator.core.render import render
from generator.core.spec import load_spec

SPEC_DIR = Path("specs")
BUILD_DIR = Path("build")


@dataclass(frozen=True)
class Output:
    spec_path: str
    path: Path
    source: str

    def on_disk(self) -> str | None:
        try:
            return self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None

    @property
    def stale(self) -> bool:
        return self.on_disk() != self.source

    def diff(self) -> str:
        old = self.on_disk() or ""
        return "".join(
            difflib.unified_diff(
                old.splitlines(keepends=True),
                self.source.splitlines(keepends=True),
                fromfile=f"a/{self.path.as_posix()}",
                tofile=f"b/{self.path.as_posix()}",
            )
        )


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
    """Render every spec (in memory); raises on the first invalid spec, writes nothing."""
    outputs: list[Output] = []
    seen: dict[str, str] = {}
    for spec_path in spec_paths:
        spec = load_spec(spec_path)
        spec = dataclasses.replace(spec, path=_display_path(Path(spec_path)))
        if spec.target.name in seen:
            raise UserError(
                f"{spec.path}: target {spec.target.name!r} is also built by {seen[spec.target.name]}"
            )
        seen[spec.target.name] = spec.path
        source = render(build_plan(spec), spec)
        outputs.append(Output(spec.path, build_dir / spec.target.name / "submission.py", source))
    return outputs


def write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_outputs(outputs: list[Output]) -> list[Output]:
    """Write the outputs that differ from disk; return those written."""
    written = [o for o in outputs if o.stale]
    for o in written:
        write_atomic(o.path, o.source)
    return written
