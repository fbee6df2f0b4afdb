"""`gen tune`'s records: one JSON line per measured (or refused) candidate.

A file per target, only ever appended to, each line flushed as soon as its
candidate is done, so an interrupted run keeps everything it measured. By
default it lives outside the checkout, in the user's cache
($XDG_CACHE_HOME/mla-gen/tune/<target>.jsonl, else
~/.cache/mla-gen/tune/<target>.jsonl); `--records F` puts it elsewhere.

A line is keyed by what decides its result: the sha256 of the candidate's
rendered kernel source (its runner and the kernel bodies and imports it uses;
for a candidate the spec stage rejects, of its fields), the shape, the
device, its driver and the torch and triton versions. A later run skips every
key already recorded, so adding one candidate to a space measures only it,
and a template change measures everything again.

Records are evidence, never orders: anyone can write a line, so a record
only spares a measurement. It cannot rewrite a spec (gen tune measures the
winner and the current entry again before any write-back), and a JSON line
that is not a record gen tune could have written (a missing or mistyped
field, a time that is not a finite positive number) is a user error naming
file:line. A line that is not JSON at all (a write cut short by a crash) is
passed over, named in a note, and its candidate measured again.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import subprocess
from dataclasses import asdict, dataclass
from pathlib import Path

from generator.core.plan import Plan, Runner
from generator.core.render import environment
from generator.core.safety import printable
from generator.errors import UserError
from generator.tune.paths import records_home

FORMAT = 1

# What a candidate came to.
OK = "ok"                # passed every check case and was timed
REJECTED = "rejected"    # the spec stage refused it: never built
FILTERED = "filtered"    # the resource report refused it: never run
FAILED = "failed"        # failed to build, to run, or a check case
SKIPPED = "skipped"      # its backend cannot run on this machine
STATUSES = (OK, REJECTED, FILTERED, FAILED, SKIPPED)

# The fields of a record's key and of what decisions read: each a string.
_TEXT_FIELDS = ("kernel_sha256", "shape", "device", "driver", "torch", "triton", "reason")
# A timing (generator/gpu/bench.py Timing as a dict): times in us.
_TIMES = ("mean_us", "median_us", "min_us")


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
    return records_home() / f"{target}.jsonl"


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _shown(value) -> str:
    """A value as a message shows it: repr, one printable line, bounded."""
    text = printable(repr(value))
    return text if len(text) <= 60 else text[:57] + "..."


def timing_problem(timing) -> str | None:
    """Why a timing cannot be trusted as a measurement, or None: every time a
    finite positive number, the standard error and drift finite and not
    negative, at least one run."""
    if not isinstance(timing, dict):
        return f"timing: {_shown(timing)} is not a mapping"
    for name in _TIMES:
        value = timing.get(name)
        if not _number(value) or not math.isfinite(value) or value <= 0:
            return f"timing.{name}: {_shown(value)} is not a finite positive time"
    for name in ("sem_us", "drift"):
        value = timing.get(name)
        if not _number(value) or not math.isfinite(value) or value < 0:
            return f"timing.{name}: {_shown(value)} is not a finite number >= 0"
    runs = timing.get("runs")
    if not isinstance(runs, int) or isinstance(runs, bool) or runs < 1:
        return f"timing.runs: {_shown(runs)} is not a whole number >= 1"
    return None


def record_problem(record) -> str | None:
    """Why a parsed line is not a record gen tune writes, or None."""
    if not isinstance(record, dict):
        return f"{type(record).__name__} where a record (a JSON object) belongs"
    if record.get("format") != FORMAT:
        return f"format: {_shown(record.get('format'))} is not {FORMAT}"
    for name in _TEXT_FIELDS:
        if not isinstance(record.get(name), str):
            return f"{name}: {_shown(record.get(name))} is not a string"
    status = record.get("status")
    if status not in STATUSES:
        return f"status: {_shown(status)} is not one of {', '.join(STATUSES)}"
    if status == OK:
        return timing_problem(record.get("timing"))
    return None


class Records:
    """The records of one file: read once (every line checked), appended to
    line by line."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.lines: list[dict] = []
        self.passed_over: list[int] = []  # numbers of the lines that are not JSON
        self.other_formats = 0  # lines of another format version: passed over
        self._needs_newline = False
        if self.path.exists():
            self._read()
        self._by_key = {self.key_of(r): r for r in self.lines}

    def _read(self) -> None:
        shown = printable(str(self.path))
        try:
            data = self.path.read_bytes()
        except OSError as exc:
            raise UserError(f"{shown}: cannot read the records "
                            f"({exc.strerror or type(exc).__name__})") from None
        for number, raw in enumerate(data.split(b"\n"), start=1):
            if not raw.strip():
                continue
            where = f"{shown}:{number}"
            try:
                record = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
                # Cut short by a crash mid-write (the JSON prefix of a record
                # never parses): it says nothing, so its candidate is measured again.
                self.passed_over.append(number)
                continue
            if (isinstance(record, dict) and _number(record.get("format"))
                    and record["format"] != FORMAT):  # another version of gen: not read
                self.other_formats += 1
                continue
            problem = record_problem(record)
            if problem:
                raise UserError(f"{where}: {problem}; not a record gen tune "
                                "writes: remove the line, or pass another --records")
            self.lines.append(record)
        self._needs_newline = bool(data) and not data.endswith(b"\n")

    @staticmethod
    def key_of(record: dict) -> tuple:
        return (record["kernel_sha256"], record["shape"], record["device"], record["driver"],
                record["torch"], record["triton"])

    @staticmethod
    def key(kernel_sha: str, shape: str, fp: Fingerprint) -> tuple:
        return (kernel_sha, shape, fp.device, fp.driver, fp.torch, fp.triton)

    def get(self, key: tuple) -> dict | None:
        return self._by_key.get(key)

    def notes(self) -> list[str]:
        """What reading the file passed over, one line each."""
        shown = printable(str(self.path))
        out = [f"{shown}:{n}: not a JSON line (a write cut short?): passed over; its "
               "candidate is measured again" for n in self.passed_over]
        if self.other_formats:
            out.append(f"{shown}: {self.other_formats} lines of another format version "
                       f"(not {FORMAT}): passed over")
        return out

    def append(self, record: dict) -> dict:
        """Add one record to the file (flushed and synced before returning)."""
        record = {"format": FORMAT, **record}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a", encoding="utf-8") as f:
            # After a line cut short, start a new one: never extend the broken line.
            lead = "\n" if self._needs_newline else ""
            f.write(lead + json.dumps(record, sort_keys=True) + "\n")
            f.flush()
            os.fsync(f.fileno())
        self._needs_newline = False
        self.lines.append(record)
        self._by_key[self.key_of(record)] = record
        return record


def fingerprint_fields(fp: Fingerprint) -> dict:
    return asdict(fp)
