"""One error hierarchy. A UserError reaches the CLI boundary, which prints it
without a traceback and exits with code 2."""

from __future__ import annotations

import difflib
from dataclasses import dataclass


class GenError(Exception):
    """Base of every error the generator raises on purpose."""


class UserError(GenError):
    """A mistake the user can fix (bad spec, bad option). Exit code 2."""

    exit_code = 2


@dataclass(frozen=True)
class SpecIssue:
    """One problem in a spec file, located at file:line and a field path."""

    file: str
    line: int | None
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        return f"{where}: {self.path}: {self.message}" if self.path else f"{where}: {self.message}"


class SpecError(UserError):
    """Every problem found in one spec file, reported together."""

    def __init__(self, issues: list[SpecIssue]):
        self.issues = sorted(issues, key=lambda i: (i.line or 0, i.path))
        super().__init__("\n".join(str(i) for i in self.issues))


def did_you_mean(word: str, choices) -> str:
    """' (did you mean 'x'?)' when a close match exists, else ''."""
    close = difflib.get_close_matches(str(word), list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def one_of(choices) -> str:
    return ", ".join(str(c) for c in choices)
