"""From a spec to an imported submission, the way the leaderboard imports it:
a module named `submission` in a folder beside a `task` module that defines
the type aliases. `gen check`, `gen bench` and `gen tune` all go through
build_module."""

from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

from generator.core import safety

from generator.core.plan import Plan
from generator.core.planner import build_plan
from generator.core.render import render
from generator.core.spec import Spec, load_spec
from generator.errors import UserError

TASK_MODULE = '''"""Stand-in for the leaderboard's task module: type aliases only."""
from typing import Any

import torch

input_t = tuple[torch.Tensor, dict[str, Any], torch.Tensor, torch.Tensor, dict[str, Any]]
output_t = torch.Tensor
'''


@contextmanager
def isolated_environment() -> Iterator[None]:
    """Run the body with os.environ restored afterwards, exactly: variables the
    body set are removed, those it changed or removed come back. A submission
    sets its spec's environment (target.env) when imported; that belongs to
    the submission's own process on the leaderboard, not to gen's, and never
    to the next spec gen imports."""
    saved = dict(os.environ)
    try:
        yield
    finally:
        for name in [n for n in os.environ if n not in saved]:
            del os.environ[name]
        for name, value in saved.items():
            if os.environ.get(name) != value:
                os.environ[name] = value


def import_submission(source: str, folder: str | Path | None = None) -> ModuleType:
    """Write source as submission.py (and task.py) into folder and import it fresh.

    Triton reads kernel source from the file, so it must exist on disk; the
    folder defaults to a new temporary one that lives as long as the process.
    The file's bytes are UTF-8 and must be read back as UTF-8 (no source
    encoding declared in its first lines); the import runs with the process
    environment isolated (isolated_environment)."""
    problem = safety.encoded_as_utf8_problem(source)
    if problem:
        raise UserError(f"refusing to import a submission: {problem}")
    folder = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="gen-sub-"))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "task.py").write_text(TASK_MODULE, encoding="utf-8")
    path = folder / "submission.py"
    path.write_text(source, encoding="utf-8")
    for name in ("submission", "task"):
        sys.modules.pop(name, None)
    sys.path.insert(0, str(folder))
    try:
        spec = importlib.util.spec_from_file_location("submission", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules["submission"] = module
        with isolated_environment():
            spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(folder))
    return module


def build_module(spec: Spec | str | Path, interpret: bool = False,
                 folder: str | Path | None = None) -> tuple[Plan, ModuleType]:
    """The one way from a spec (a path or a validated Spec) to a live module:
    load and validate, plan, render, then import as `submission` beside `task`.

    interpret=True builds for Triton's CPU interpreter (set TRITON_INTERPRET=1
    before triton is first imported)."""
    if not isinstance(spec, Spec):
        spec = load_spec(spec)
    plan = build_plan(spec, interpret=interpret)
    return plan, import_submission(render(plan, spec), folder)


def this_platform() -> str:
    """The platform torch was built for here: rocm or cuda."""
    import torch

    return "rocm" if getattr(torch.version, "hip", None) else "cuda"
