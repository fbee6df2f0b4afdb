"""Read a timing result (the JSON `gen bench --json` and `gen results import
--json` write) and check it before anything uses its numbers.

The shape, as generator/gpu/bench.py writes it: a mapping with "rows", one per
shape, each with "shape" (its tag) and "queued" (the leaderboard's timing:
"mean_us", "sem_us", "drift", ...), plus run-wide fields (device, mode, spec,
geomean_us, ...). An imported result marks what the report does not give as
null and a shape that failed with "status": "failed" and no timing. Times must
be finite and positive, standard errors and drifts finite and not negative: a
NaN, an infinity, a zero or a negative time is the file's fault and is named
with its place, never read as a number.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from generator.core import safety
from generator.errors import UserError

# A result is a few kB; the bound only refuses what cannot be one.
MAX_RESULT_BYTES = 64 << 20

# Timing fields: positive times, and spreads that may be zero.
_TIMES = ("mean_us", "median_us", "min_us", "max_us")
_SPREADS = ("sem_us", "drift")


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_timing(where: str, timing: Any) -> list[str]:
    if not isinstance(timing, dict):
        return [f"{where}: {timing!r} is not a timing (a mapping with mean_us)"]
    problems = []
    if timing.get("mean_us") is None:
        problems.append(f"{where}.mean_us: missing")
    for key in _TIMES + _SPREADS:
        value = timing.get(key)
        if value is None:
            continue
        if not _number(value) or not math.isfinite(value):
            problems.append(f"{where}.{key}: {value!r} is not a finite number")
        elif key in _TIMES and value <= 0:
            problems.append(f"{where}.{key}: {value!r} is not a time (allowed: above 0)")
        elif key in _SPREADS and value < 0:
            problems.append(f"{where}.{key}: {value!r} is negative (allowed: 0 or more)")
    runs = timing.get("runs")
    if runs is not None and (not isinstance(runs, int) or isinstance(runs, bool) or runs < 1):
        problems.append(f"{where}.runs: {runs!r} is not a count of runs (allowed: 1 or more)")
    return problems


def check_result(result: Any, shown: str) -> dict:
    """result, when it is a timing result whose numbers can be used; else a
    UserError listing every problem (file, row, field, value, what is allowed)."""
    if isinstance(result, list):
        raise UserError(f"{shown}: a list, not a timing result (a `gen check --json` file? "
                        "gen compare and gen plot read what `gen bench --json` or "
                        "`gen results import --json` write)")
    if not isinstance(result, dict) or not isinstance(result.get("rows"), list):
        raise UserError(f"{shown}: not a timing result (expected a mapping with \"rows\", as "
                        "`gen bench --json` or `gen results import --json` write)")
    problems = []
    seen: set[str] = set()
    for i, row in enumerate(result["rows"]):
        where = f"rows[{i}]"
        if not isinstance(row, dict) or not isinstance(row.get("shape"), str):
            problems.append(f"{where}: not a row (a mapping with a \"shape\" tag)")
            continue
        where = f"rows[{i}] ({safety.printable(row['shape'])})"
        if row["shape"] in seen:
            problems.append(f"{where}: a second row for the same shape")
        seen.add(row["shape"])
        if row.get("status", "ok") == "failed":
            if row.get("queued") is not None:
                problems.append(f"{where}: a failed row with a timing")
            continue
        if row.get("status", "ok") != "ok":
            problems.append(f"{where}.status: {row['status']!r} is not a row status "
                            "(allowed: ok, failed)")
            continue
        problems += _check_timing(f"{where}.queued", row.get("queued"))
    for key in ("geomean_us",):
        value = result.get(key)
        if value is not None and (not _number(value) or not math.isfinite(value) or value <= 0):
            problems.append(f"{key}: {value!r} is not a time (allowed: a finite number above 0)")
    if problems:
        raise UserError(f"{shown}: not a usable timing result:\n  " + "\n  ".join(problems))
    return result


def read_text(path: str | Path, limit: int, what: str) -> tuple[str, str]:
    """(text, path as shown) of a UTF-8 file of at most `limit` bytes, or of
    stdin for "-"; every failure is a UserError naming it (`what` says what
    the file should have been)."""
    import sys

    shown = "<stdin>" if str(path) == "-" else safety.printable(str(path))
    try:
        if str(path) == "-":
            data = sys.stdin.buffer.read(limit + 1)
        else:
            with open(path, "rb") as f:
                data = f.read(limit + 1)
    except OSError as exc:
        raise UserError(f"{shown}: cannot read: {exc.strerror or type(exc).__name__}") from None
    if len(data) > limit:
        raise UserError(f"{shown}: larger than {limit >> 20} MiB: not {what}")
    try:
        return data.decode("utf-8"), shown
    except UnicodeDecodeError as exc:
        raise UserError(f"{shown}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset "
                        f"{exc.start})") from None


def load_result(path: str | Path) -> dict:
    """Read and check one result file; every failure is a UserError naming it."""
    text, shown = read_text(path, MAX_RESULT_BYTES, "a timing result")
    try:
        result = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(f"{shown}:{exc.lineno}: not JSON: {exc.msg} (column {exc.colno})") from None
    except RecursionError:
        raise UserError(f"{shown}: not JSON: nested too deeply") from None
    return check_result(result, shown)
