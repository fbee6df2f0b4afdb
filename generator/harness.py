"""Import a generated submission the way the leaderboard does: a module named
`submission` in a folder beside a `task` module that defines the type aliases."""

from __future__ import annotations

import importlib.util
import sys
import tempfile
from pathlib import Path
from types import ModuleType

TASK_MODULE = '''"""Stand-in for the leaderboard's task module: type aliases only."""
from typing import Any

import torch

input_t = tuple[torch.Tensor, dict[str, Any], torch.Tensor, torch.Tensor, dict[str, Any]]
output_t = torch.Tensor
'''


def import_submission(source: str, folder: str | Path | None = None) -> ModuleType:
    """Write source as submission.py (and task.py) into folder and import it fresh.

    Triton reads kernel source from the file, so it must exist on disk; the
    folder defaults to a new temporary one that lives as long as the process."""
    folder = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="gen-sub-"))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "task.py").write_text(TASK_MODULE)
    path = folder / "submission.py"
    path.write_text(source)
    for name in ("submission", "task"):
        sys.modules.pop(name, None)
    sys.path.insert(0, str(folder))
    try:
        spec = importlib.util.spec_from_file_location("submission", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules["submission"] = module
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(folder))
    return module
