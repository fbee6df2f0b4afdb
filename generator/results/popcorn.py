"""`gen results import`: what popcorn-cli prints for a benchmark or leaderboard
submission, read into the JSON shape `gen bench --json` writes.

How that text is made (read in the public sources; no code taken from them):

- gpu-mode/reference-kernels, problems/amd_202602/eval.py and
  mixed-mla/task.yml: the evaluator writes its results as `key: value` lines to
  a pipe of its own (POPCORN_FD), never through the program's stdout: per
  benchmark its spec (the task's line, `batchsize: 32; qseqlen: 1; kvseqlen:
  8192; seed: 5415`, keys in the task's order; other tasks and variants spell
  them batch_size, kv_seq_len, tp, ...), then mean, err (the standard error of
  the mean), best and worst in nanoseconds, or a failure and its error.
- gpu-mode/kernelbot (formerly discord-cluster-manager),
  src/libkernelbot/report.py: generate_report() turns those results into a
  report: the system information ("Running on:", "* GPU: `...`"), then one log
  section per stage, "Benchmarks" (benchmark mode) and "Ranked Benchmark"
  (leaderboard mode), made by make_benchmark_log(): per benchmark the spec
  line, " ⏱ <mean> ± <err> <unit>" (the "± err" part only when err is not 0)
  and " ⚡ <best> <unit> 🐌 <worst> <unit>" (utils.format_time: ns, µs or ms),
  or "❌ <spec> failed testing:" and the error, blocks apart by a blank line.
  The program's own stdout and stderr enter a report only as the log sections
  "Program stdout" and "Program stderr", after every benchmark section (a
  one-stage run, or a crash or failed test's report).
- kernelbot, src/kernelbot/api/api_utils.py: each run's report is its title
  "**<gpu> on <runner>**" (" (secret)" for the secret run), its "> " status
  lines, then every log as "\\n\\n## <header>:\\n```\\n<content>```"; the API
  returns the reports of all runs as a JSON list of strings.
- gpu-mode/popcorn-cli, src/cmd/submit.rs (run_submit_plain) and
  src/service/mod.rs: until mid-2026 the client printed that list's JSON text
  without its brackets, every "\\n" escape turned into a newline (stdout, and
  the file --output writes), after echoing the program's stdout and stderr on
  stderr as "STDOUT (Run 1):" / "STDERR (Run 1):". Since mid-2026 it submits
  in the background and prints "Geomean score (public) on MI355X: <s> s" per
  scored leaderboard run, then a JSON summary of the runs (mode, secret,
  runner, score in seconds), and no program output.

Trust. The program under test controls its own output, so text it printed
must never count. A JSON-quoted report (the client's stdout or --output file)
is decoded exactly: a quote the program printed is escaped there, so a run's
report cannot end or begin inside the program's text, and everything printed
before the report (the echo of the program's output) is ignored. Within one
run's report only the "Benchmarks" and "Ranked Benchmark" sections count, and
only those before its first "Program ..." or "Compiler ..." section. A second
section of one kind in one run, an unrecognised line inside a section, or two
blocks for one shape (a forged block inside an error message, say) make the
import fail rather than guess. Plain report text (copied from the Discord
bot's message) follows the same rules, and nothing after the first program
output section counts; text mixing the client's echo of the program's output
with an unquoted report is refused.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field

from generator.core import safety
from generator.core.contract import DEFAULT_HEADS
from generator.core.planner import tag_for
from generator.errors import UserError

# Log sections whose blocks count, and the mode each one reports.
SECTIONS = {"Benchmarks": "benchmark", "Ranked Benchmark": "leaderboard"}
# Log sections that hold text the program (or its compiler) printed: nothing
# after the first of them counts.
_UNTRUSTED_RE = re.compile(r"(Program|Compiler) (stdout|stderr)")

_NUM = r"([0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?)"
_UNIT = r"(ns|µs|μs|us|ms)"
_VS = "\ufe0f?"  # an emoji's optional presentation selector
_MEAN_RE = re.compile(rf"^\s*⏱{_VS}\s*{_NUM}\s*(?:±\s*{_NUM}\s*)?{_UNIT}\s*$")
_RANGE_RE = re.compile(rf"^\s*⚡{_VS}\s*{_NUM}\s*{_UNIT}\s*🐌{_VS}\s*{_NUM}\s*{_UNIT}\s*$")
_FAIL_RE = re.compile(rf"^\s*❌{_VS}\s*(.*?)\s+failed testing:\s*$")
_NONE_RE = re.compile(r"^\s*❗.*Could not find any benchmarks")
_SPEC_PART_RE = re.compile(r"\s*([A-Za-z_]\w*)\s*:\s*([^;:\s][^;]*?)\s*")
_HEADER_RE = re.compile(r"^## (.+):\s*$")
_TITLE_RE = re.compile(r"^\*\*(.+?)\*\*")
_SYSTEM_RE = re.compile(r"^\*\s+(GPU|Torch|Runtime|Platform):\s*`([^`]*)`\s*$")
_CALLBACK_RE = re.compile(r"^(STDOUT|STDERR)( \(Run \d+\))?:\s*$", re.M)
_GEOMEAN_RE = re.compile(r"^\s*Geomean score(?: \((public|secret)\))?(?: on ([^:]+))?:\s*"
                         r"([0-9.eE+-]+)\s*s\s*$")

_TO_US = {"ns": 1e-3, "µs": 1.0, "μs": 1.0, "us": 1.0, "ms": 1e3}

# The spec line's keys for each part of a shape's key, as tasks spell them.
_BATCH_KEYS = ("batchsize", "batch_size", "batch", "bs")
_KV_KEYS = ("kvseqlen", "kv_seq_len", "kv_len", "kvlen")
_Q_KEYS = ("qseqlen", "q_seq_len", "q_len")
_HEADS_KEYS = ("num_heads", "numheads", "heads", "nhead")
# A task variant gives the tensor-parallel degree instead of the head count:
# DeepSeek-R1 has 128 query heads before the split (task.yml).
_TOTAL_HEADS = 128
MAX_REPORT_BYTES = 16 << 20


@dataclass(frozen=True)
class Block:
    """One benchmark of a report: its spec line, the shape it keys, and either
    its timing (us) or its failure."""

    line: int
    spec: str
    key: tuple[int, int, int, int]
    mean_us: float | None = None
    err_us: float | None = None
    best_us: float | None = None
    worst_us: float | None = None
    error: str | None = None

    @property
    def tag(self) -> str:
        return tag_for(*self.key)


@dataclass
class Run:
    """One run's report: its title, system information and benchmark sections."""

    title: str = ""
    system: dict[str, str] = field(default_factory=dict)
    sections: dict[str, list[Block]] = field(default_factory=dict)
    # The run's "> " status lines ("✅ Testing successful", "❌ Running benchmarks failed").
    status: list[str] = field(default_factory=list)

    @property
    def secret(self) -> bool:
        return "(secret)" in self.title


@dataclass(frozen=True)
class Score:
    """A leaderboard score line: the geometric mean of the ranked means."""

    label: str
    runner: str
    score_us: float


@dataclass(frozen=True)
class Report:
    runs: tuple[Run, ...]
    scores: tuple[Score, ...]
    form: str  # "quoted" (popcorn-cli), "plain" (report text), "summary" (background jobs)


class _Reader:
    """Parses one file's text; every problem is a UserError naming file:line."""

    def __init__(self, shown: str):
        self.shown = shown

    def fail(self, line: int | None, message: str):
        where = f"{self.shown}:{line}" if line else self.shown
        raise UserError(f"{where}: {message}")

    # -- one run's report ----------------------------------------------------

    def run(self, lines: list[str], first_line: int) -> tuple[Run, int | None]:
        """A run's report from its lines; also the index of the line where its
        first section of program output starts (nothing from it on counts), or
        None."""
        run = Run()
        i = 0
        while i < len(lines):
            line = lines[i]
            lineno = first_line + i
            title = _TITLE_RE.match(line)
            if title and not run.title:
                run.title = title.group(1).strip()
            if line.startswith("> ") and not run.sections:
                run.status.append(safety.printable_line(line[2:].strip())[:200])
            system = _SYSTEM_RE.match(line.strip())
            if system:
                run.system.setdefault(system.group(1).lower(), system.group(2))
            header = _HEADER_RE.match(line)
            if header and i + 1 < len(lines) and lines[i + 1].strip() == "```":
                name = header.group(1).strip()
                if _UNTRUSTED_RE.fullmatch(name):
                    return run, i
                end = i + 2
                while end < len(lines) and not lines[end].rstrip().endswith("```"):
                    end += 1
                if name in SECTIONS:
                    if name in run.sections:
                        self.fail(lineno, f"a second {name!r} section in one run's report: not "
                                  "a report as popcorn-cli prints it (refusing to guess which "
                                  "one is real)")
                    body = lines[i + 2:end]
                    if end < len(lines):
                        body.append(lines[end].rstrip()[:-3])
                    run.sections[name] = self.blocks(body, first_line + i + 2, name)
                i = end + 1
                continue
            i += 1
        return run, None

    def blocks(self, lines: list[str], first_line: int, section: str) -> list[Block]:
        out: list[Block] = []
        i = 0
        while i < len(lines):
            line, lineno = lines[i], first_line + i
            if not line.strip() or _NONE_RE.match(line):
                i += 1
                continue
            failed = _FAIL_RE.match(line)
            if failed:
                key = self.key(failed.group(1), lineno)
                j = i + 1
                while j < len(lines) and not self.block_start(lines, j):
                    j += 1
                error = " ".join(s.strip() for s in lines[i + 1:j] if s.strip())
                out.append(Block(lineno, failed.group(1).strip(), key,
                                 error=safety.printable_line(error)[:500] or "failed"))
                i = j
                continue
            mean = _MEAN_RE.match(lines[i + 1]) if i + 1 < len(lines) else None
            if mean is None:
                self.fail(lineno, f"{safety.printable_line(line)!r} is not a line of a "
                          f"{section!r} section (a spec line and its ⏱ line, ⚡/🐌 line, or "
                          "'❌ ... failed testing:')")
            key = self.key(line, lineno)
            mean_us = self.time(mean.group(1), mean.group(3), lineno + 1)
            err_us = self.time(mean.group(2), mean.group(3), lineno + 1, zero=True) \
                if mean.group(2) is not None else 0.0
            best = worst = None
            i += 2
            spread = _RANGE_RE.match(lines[i]) if i < len(lines) else None
            if spread:
                best = self.time(spread.group(1), spread.group(2), lineno + 2)
                worst = self.time(spread.group(3), spread.group(4), lineno + 2)
                i += 1
            out.append(Block(lineno, line.strip(), key, mean_us, err_us, best, worst))
        seen: dict[str, int] = {}
        for block in out:
            if block.tag in seen:
                self.fail(block.line, f"a second block for shape {block.tag} (first at line "
                          f"{seen[block.tag]}) in one {section!r} section: not a report as "
                          "popcorn-cli prints it (refusing to guess which one is real)")
            seen[block.tag] = block.line
        return out

    def block_start(self, lines: list[str], j: int) -> bool:
        """A failed block's error ends where the next block starts."""
        if _FAIL_RE.match(lines[j]):
            return True
        return j + 1 < len(lines) and _MEAN_RE.match(lines[j + 1]) is not None \
            and self.spec_pairs(lines[j]) is not None

    @staticmethod
    def spec_pairs(text: str) -> dict[str, str] | None:
        pairs = {}
        for part in text.split(";"):
            m = _SPEC_PART_RE.fullmatch(part)
            if m is None:
                return None
            pairs[m.group(1).lower()] = m.group(2)
        return pairs

    def key(self, spec: str, lineno: int) -> tuple[int, int, int, int]:
        """(batch, kv_len, q_seq_len, num_heads) from a spec line's keys, in any order."""
        pairs = self.spec_pairs(spec)
        shown = safety.printable_line(spec.strip())
        if pairs is None:
            self.fail(lineno, f"{shown!r} is not a benchmark spec line ('key: value; key: value')")

        def number(keys, default=None):
            found = [k for k in keys if k in pairs]
            if not found:
                if default is not None:
                    return default
                self.fail(lineno, f"{shown!r}: no {keys[0]} (allowed keys: {', '.join(keys)})")
            value = pairs[found[0]]
            if not re.fullmatch(r"[0-9]{1,9}", value) or int(value) < 1:
                self.fail(lineno, f"{shown!r}: {found[0]}: {value!r} is not a positive integer")
            return int(value)

        heads = number(_HEADS_KEYS, 0)
        if not heads and "tp" in pairs:
            tp = number(("tp",))
            if _TOTAL_HEADS % tp:
                self.fail(lineno, f"{shown!r}: tp: {tp} does not divide {_TOTAL_HEADS} heads")
            heads = _TOTAL_HEADS // tp
        return (number(_BATCH_KEYS), number(_KV_KEYS), number(_Q_KEYS, 1), heads or DEFAULT_HEADS)

    def time(self, number: str, unit: str, lineno: int, zero: bool = False) -> float:
        value = float(number) * _TO_US[unit]
        if not math.isfinite(value) or value < 0 or (value == 0 and not zero):
            self.fail(lineno, f"{number} {unit} is not a time")
        return value

    # -- the whole text --------------------------------------------------------

    def parse(self, text: str) -> Report:
        text = text.replace("\r\n", "\n")
        quoted = self.quoted(text)
        if quoted is not None:
            return Report(tuple(self.run(s.split("\n"), line)[0] for line, s in quoted), (),
                          "quoted")
        if _CALLBACK_RE.search(text):
            self.fail(None, "popcorn-cli's echo of the program's own output (STDOUT (Run n):) "
                      "is mixed into this text and no report in popcorn-cli's quoted form "
                      "follows it: the program's text cannot be told from the report's. "
                      "Save the report with `popcorn-cli submit ... --output FILE` and import "
                      "that file")
        summary = self.summary(text)
        if summary is not None:
            return Report((), summary, "summary")
        # Plain report text: a run starts at each title line; nothing after the
        # first section of program output counts (a title or a section there
        # may be the program's).
        runs, lines = [], text.split("\n")
        starts = sorted({0} | {i for i, s in enumerate(lines) if _TITLE_RE.match(s)})
        trusted = len(lines)
        for k, start in enumerate(starts):
            end = starts[k + 1] if k + 1 < len(starts) else len(lines)
            run, stop = self.run(lines[start:end], start + 1)
            runs.append(run)
            if stop is not None:
                trusted = start + stop
                break
        scores = tuple(self.scores(lines[:trusted]))
        return Report(tuple(r for r in runs if r.sections or r.title), scores, "plain")

    def quoted(self, text: str) -> list[tuple[int, str]] | None:
        """The run reports of popcorn-cli's quoted form: the JSON strings that run
        from a line's first character to the end of the text, separated by
        commas; (line of each string's start, its exact text). None if absent."""
        starts = [m.start() for m in re.finditer(r'(?m)^"', text)]
        for start in starts:
            strings = self.strings(text, start)
            if strings is not None:
                return strings
        return None

    @staticmethod
    def strings(text: str, pos: int) -> list[tuple[int, str]] | None:
        out = []
        while True:
            j = pos + 1
            while j < len(text) and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            if j >= len(text):
                return None
            try:
                # The client turned every "\n" escape into a newline: undo it.
                value = json.loads(text[pos:j + 1].replace("\n", "\\n"))
            except json.JSONDecodeError:
                return None
            out.append((text.count("\n", 0, pos) + 1, value))
            if text[j + 1:j + 2] == "," and text[j + 2:j + 3] == '"':
                pos = j + 2
                continue
            return out if not text[j + 1:].strip() else None

    def summary(self, text: str) -> tuple[Score, ...] | None:
        """The background client's form: Geomean score lines, then the runs' JSON
        summary; the scores come from the JSON (in seconds)."""
        decoder = json.JSONDecoder()
        for m in re.finditer(r"(?m)^\{", text):
            try:
                value, end = decoder.raw_decode(text, m.start())
            except json.JSONDecodeError:
                continue
            if text[end:].strip() or not isinstance(value, dict) \
                    or not isinstance(value.get("runs"), list):
                continue
            scores = []
            for run in value["runs"]:
                if not isinstance(run, dict) or run.get("mode") != "leaderboard":
                    continue
                score = run.get("score")
                if isinstance(score, (int, float)) and not isinstance(score, bool) \
                        and math.isfinite(score) and score > 0:
                    label = "secret" if run.get("secret") else "public"
                    scores.append(Score(label, str(run.get("runner", "")), score * 1e6))
            if not scores:
                scores = list(self.scores(text[:m.start()].split("\n")))
            return tuple(scores)
        return None

    def scores(self, lines: list[str]) -> list[Score]:
        out = []
        for i, line in enumerate(lines):
            m = _GEOMEAN_RE.match(line)
            if m:
                try:
                    value = float(m.group(3))
                except ValueError:
                    value = math.nan
                if not math.isfinite(value) or value <= 0:
                    self.fail(i + 1, f"{m.group(3)} s is not a score")
                out.append(Score(m.group(1) or "public", (m.group(2) or "").strip(), value * 1e6))
        return out


def parse_report(text: str, shown: str = "<report>") -> Report:
    """The runs and scores of popcorn-cli's output (see the module's docstring)."""
    return _Reader(shown).parse(text)
