"""`gen tune`'s records: one JSON line per measured (or refused) candidate.

A file per target (perf/tune/<target>.jsonl by default), only ever appended
to, each line flushed as soon as its candidate is done, so an interrupted run
keeps everything it measured. A line is keyed by what decides its result: the
sha256 of the candidate's rendered kernel source (its runner and the kernel
bodies and imports it uses; for a candidate the spec stage rejects, of its
fields), the shape, the device, its driver and the torch and triton versions.
A later run skips every key already recorded, so adding one candidate to a
space measures only it, and a template change measures everything again.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from dataclasses import asdict, dataclass
from pathlib import Path

from generator.core.plan import Plan, Runner
from generator.core.render import environment

FORMAT = 1
RECORDS_DIR = Path("perf/tune")

# What a candidate came to.
OK = "ok"                # passed every check case and was timed
REJECTED = "rejected"    # the spec stage refused it: never built
FILTERED = "filtered"    # the resource report refused it: never run
FAILED = "failed"        # failed to build, to run, or a check case
SKIPPED = "skipped"      # its backend cannot run on this machine


@dataclass(frozen=True)
class Fingerprint:
    """The machine a measurement belongs to."""

    device: str
    driver: str
    torch: str
    triton: str

    @staticmethod
    def here(interpret: bool) -> "Fingerprint":
        import torch
        import triton

        if interpret:
            return Fingerprint("cpu (Triton interpreter)", "none", torch.__version__,
                               triton.__version__)
        return Fingerprint(torch.cuda.get_device_name(), _driver(), torch.__version__,
                           triton.__version__)


def _driver() -> str:
    """The GPU driver's version as nvidia-smi reports it (HIP's version on ROCm)."""
    import torch

    if getattr(torch.version, "hip", None):
        return f"hip {torch.version.hip}"
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.splitlines()[0].strip() if out.strip() else "unknown"


def kernel_source(plan: Plan, runner: Runner) -> str:
    """What a runner's code is: its backend template's imports, shared kernel
    bodies and the runner itself, rendered for this runner alone."""
    macros = environment().get_template(runner.template).module
    return "".join(str(part) for part in (macros.imports([runner]),
                                          macros.shared(plan, [runner]),
                                          macros.runner(runner, plan)))


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def fields_sha256(fields: dict) -> str:
    """The key of a candidate that has no source (the spec stage rejected it)."""
    return sha256("entry:" + json.dumps(fields, sort_keys=True))


def default_path(target: str) -> Path:
    return RECORDS_DIR / f"{target}.jsonl"


class Records:
    """The records of one file: read once, appended to line by line."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.lines: list[dict] = []
        self.unreadable = 0
        if self.path.exists():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    # A line cut short by a crash mid-write: measured again.
                    self.unreadable += 1
                    continue
                if isinstance(record, dict) and record.get("format") == FORMAT:
                    self.lines.append(record)
        self._by_key = {self.key_of(r): r for r in self.lines}

    @staticmethod
    def key_of(record: dict) -> tuple:
        return (record["kernel_sha256"], record["shape"], record["device"], record["driver"],
                record["torch"], record["triton"])

    @staticmethod
    def key(kernel_sha: str, shape: str, fp: Fingerprint) -> tuple:
        return (kernel_sha, shape, fp.device, fp.driver, fp.torch, fp.triton)

    def get(self, key: tuple) -> dict | None:
        return self._by_key.get(key)

    def append(self, record: dict) -> dict:
        """Add one record to the file (flushed and synced before returning)."""
        record = {"format": FORMAT, **record}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(record, sort_keys=True) + "\n")
            f.flush()
            os.fsync(f.fileno())
        self.lines.append(record)
        self._by_key[self.key_of(record)] = record
        return record


def fingerprint_fields(fp: Fingerprint) -> dict:
    return asdict(fp)
