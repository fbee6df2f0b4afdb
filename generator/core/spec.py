"""Stage 1: load a spec file and reject anything wrong before any other stage runs.

Types and unknown keys are checked by pydantic models, part by part; the rules
that depend on the target and the backend registry (which backend runs where,
which fields it takes, ranges, shared memory, duplicate shapes) are checked
after, by generator/core/spec_rules.py, on every part that typed. Every
problem is reported at once, each with file:line (from the YAML node), field
path, the bad value and what is allowed.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

from generator.core import safety
from generator.core.contract import DEFAULT_HEADS, FP8_FORMATS
from generator.core.registry import PLATFORMS
from generator.core.spec_rules import TYPE_WORDS, Checker
from generator.errors import SpecError, SpecIssue, did_you_mean, one_of


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class StackSpec(_Strict):
    """The software of the machine that runs the target's file, as data (none of
    it reaches the generated file): `gen status` shows it, and the tests check
    the generated aiter calls against the signatures of this aiter commit.
    Versions as the runner reports them; "unpinned" where it fixes none."""

    rocm: str | None = None
    cuda: str | None = None
    torch: str | None = None
    triton: str | None = None
    aiter: str | None = None  # a commit of ROCm/aiter
    aiter_date: str | None = None  # that commit's date, YYYY-MM-DD


class TargetSpec(_Strict):
    name: str
    platform: Literal[PLATFORMS]  # type: ignore[valid-type]
    fp8_format: Literal[FP8_FORMATS]  # type: ignore[valid-type]
    header: list[str] = []
    aiter: bool = False
    triton_options: dict[str, int] = {}
    env: dict[str, str] = {}
    # What the resource report (gen resources) compiles for (an architecture of
    # generator/core/occupancy.py ARCHS; default by platform) and with (the
    # Triton version the target runs).
    arch: str | None = None
    triton_version: str | None = None
    # The runner's software stack (StackSpec).
    stack: StackSpec | None = None


class EntrySpec(_Strict):
    """How one shape (or the fallback) is computed. Unset fields take the
    backend's defaults for the target's platform in the plan
    (registry.BACKENDS[...].defaults)."""

    backend: str
    q_mode: str | None = None
    kv_format: str | None = None
    splits: int | None = None
    block_n: int | None = None
    block_q: int | None = None
    num_warps: int | None = None
    num_stages: int | None = None
    reduce_block_dv: int | None = None
    mma_dtype: str | None = None
    v_reload: bool | None = None
    merge: str | None = None
    persistent: bool | None = None
    q_absmax: float | None = None
    v_early: bool | None = None
    speculate: bool | None = None
    dv_split: int | None = None
    consumers: int | None = None
    partials: str | None = None
    early_refill: bool | None = None
    l2_policy: str | None = None
    # Waivers of the resource report's rules, each a reason (registry.WAIVERS):
    # this entry's kernels may spill registers / have their wgmmas serialised.
    allow_spills: str | None = None
    allow_serialized_wgmma: str | None = None
    qk_scaled: bool | None = None
    # HIP launch options of the Triton backends (rocm targets only; registry.HIP_OPTIONS)
    waves_per_eu: int | None = None
    matrix_instr_nonkdim: int | None = None
    kpack: int | None = None
    # Same inputs, same output bits, on every call (every backend): `gen check`
    # calls each runner repeatedly on one input and fails any difference. An
    # entry may trade that away only with `deterministic: false`, its comment
    # stating the speed measured against the deterministic alternative; gen
    # check then reports the difference without failing. Not a tuning field.
    deterministic: bool = True

    def tuning(self) -> dict[str, Any]:
        """The tuning fields the user set (backend and deterministic excluded)."""
        return {k: v for k, v in self.model_dump().items()
                if v is not None and k not in ("backend", "deterministic")}


class ShapeSpec(EntrySpec):
    batch: int
    kv_len: int
    q_seq_len: int = 1
    num_heads: int = DEFAULT_HEADS
    # `gen tune`'s search space for this entry (field -> values to try), in
    # place of the registry's search_space for its backend; `backend` may be
    # listed too. Not a tuning field: the generated file does not depend on it.
    tune: dict[str, list[bool | int | float | str]] | None = None

    @property
    def key(self) -> tuple[int, int, int, int]:
        return (self.batch, self.kv_len, self.q_seq_len, self.num_heads)

    def tuning(self) -> dict[str, Any]:
        keys = {"batch", "kv_len", "q_seq_len", "num_heads", "tune"}
        return {k: v for k, v in super().tuning().items() if k not in keys}


class SpecFile(_Strict):
    target: TargetSpec
    shapes: list[ShapeSpec]
    fallback: EntrySpec


@dataclass(frozen=True)
class Spec:
    """A validated spec, with the path and raw bytes it came from."""

    path: str
    text: str
    target: TargetSpec
    shapes: tuple[ShapeSpec, ...]
    fallback: EntrySpec
    # Line of target.name: where a failure after rendering (writing the
    # target's file) points.
    name_line: int | None = None


# --------------------------------------------------------------------------
# YAML with line numbers
# --------------------------------------------------------------------------


def yaml_roundtrip() -> YAML:
    """The one YAML instance kind used for reading and writing specs back."""
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def _line_of(doc: Any, loc: tuple, key_line: bool) -> int | None:
    """1-based line of the node at loc (or of its nearest existing parent)."""
    node, line = doc, 1
    for part in loc:
        if isinstance(node, CommentedMap) and part in node:
            # An empty value (`fallback:`) has no token of its own: ruamel
            # places it on the next token's line, so point at its key instead.
            on_key = key_line or node[part] is None
            line = (node.lc.key(part) if on_key else node.lc.value(part))[0] + 1
            node = node[part]
        elif isinstance(node, CommentedSeq) and isinstance(part, int) and part < len(node):
            line = node.lc.item(part)[0] + 1
            node = node[part]
        else:
            break
    return line


def _path(loc: tuple) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out



_MODEL_FOR = {"target": TargetSpec, "shapes": ShapeSpec, "fallback": EntrySpec}


def _fields_of(loc: tuple) -> list[str]:
    if loc[:2] == ("target", "stack") and len(loc) > 2:
        return list(StackSpec.model_fields)
    model = _MODEL_FOR.get(loc[0]) if len(loc) > 1 else SpecFile
    return list(model.model_fields) if model else []


def _pydantic_issue(file: str, doc: Any, err: dict) -> SpecIssue:
    loc, kind = tuple(err["loc"]), err["type"]
    if kind == "extra_forbidden":
        allowed = _fields_of(loc)
        msg = f"unknown key{did_you_mean(loc[-1], allowed)} (allowed: {one_of(allowed)})"
        return SpecIssue(file, _line_of(doc, loc, key_line=True), _path(loc), msg)
    line = _line_of(doc, loc, key_line=False)
    if kind == "missing":
        return SpecIssue(file, line, _path(loc), "is required")
    value = err.get("input")
    if kind in TYPE_WORDS:
        msg = f"{value!r} is not {TYPE_WORDS[kind]}"
    elif kind == "literal_error":
        msg = f"{value!r} is not allowed (allowed: {err['ctx']['expected']})"
    else:
        msg = f"{value!r}: {err['msg']}"
    return SpecIssue(file, line, _path(loc), msg)


_NON_TEXT = {bool: "a boolean", int: "an integer", float: "a number", type(None): "a null"}


def _non_text_key_issue(file: str, doc: Any, loc: tuple) -> SpecIssue:
    """A mapping key YAML read as something other than text (`true`, `1`)."""
    key = loc[-1]
    if key is None or isinstance(key, bool):
        shown = {True: "true", False: "false", None: "null"}[key]
    else:
        shown = safety.printable(str(key))
    what = _NON_TEXT.get(type(key), f"a {type(key).__name__}")
    return SpecIssue(file, _line_of(doc, loc, key_line=True), _path(loc[:-1] + (shown,)),
                     f"the key {shown} is {what} to YAML, not text (quote it: \"{shown}\")")


class _Shell(_Strict):
    """The top level of a spec, each part checked by its own model after."""

    target: dict
    shapes: list
    fallback: dict


def _typed_parts(file: str, doc: Any, plain: dict) -> tuple[
        TargetSpec | None, list[tuple[int, EntrySpec]], EntrySpec | None, dict[tuple, set],
        list[SpecIssue]]:
    """Each part of the spec through its pydantic model, every type problem and
    unknown key reported: (target or None, the shapes that typed with their
    index, fallback or None, the fields left out per part, issues). A part
    with a problem is typed again without the fields at fault, so that the
    rules still judge the rest of it; a part missing a required field is left
    out (None), except a shape whose key (batch, kv_len, ...) is at fault: its
    entry is still judged, as an EntrySpec."""
    issues: list[SpecIssue] = []
    left_out: dict[tuple, set] = {}

    def quiet(model, data: dict):
        try:
            return model.model_validate(data)
        except ValidationError:
            return None

    def typed(model, data: Any, loc: tuple) -> tuple[Any, set]:
        try:
            return model.model_validate(data), set()
        except ValidationError as exc:
            errors = exc.errors()
        issues.extend(_pydantic_issue(file, doc, {**e, "loc": loc + tuple(e["loc"])})
                      for e in errors)
        if not isinstance(data, dict):
            return None, set()
        at_fault = {e["loc"][0] for e in errors if e["loc"]}
        left_out[loc] = at_fault & data.keys()
        return quiet(model, {k: v for k, v in data.items() if k not in at_fault}), at_fault

    at_fault: set = set()
    try:
        _Shell.model_validate(plain)
    except ValidationError as exc:
        issues.extend(_pydantic_issue(file, doc, e) for e in exc.errors())
        at_fault = {e["loc"][0] for e in exc.errors()}
    good = {k: v for k, v in plain.items() if k in _Shell.model_fields and k not in at_fault}
    target = typed(TargetSpec, good["target"], ("target",))[0] if "target" in good else None
    shapes = []
    for i, item in enumerate(good.get("shapes", [])):
        shape, bad = typed(ShapeSpec, item, ("shapes", i))
        if shape is None and isinstance(item, dict):
            shape = quiet(EntrySpec, {k: v for k, v in item.items()
                                      if k in EntrySpec.model_fields and k not in bad})
        if shape is not None:
            shapes.append((i, shape))
    fallback = typed(EntrySpec, good["fallback"], ("fallback",))[0] if "fallback" in good else None
    return target, shapes, fallback, left_out, issues


# --------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------


def parse_spec(text: str, path: str) -> Spec:
    """Validate spec text; raise SpecError listing every problem found: YAML
    that cannot be read stops there, else every type problem, unknown key and
    rule (generator/core/spec_rules.py) is reported in one go."""
    try:
        doc = yaml_roundtrip().load(io.StringIO(text))
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise SpecError([SpecIssue(path, line, "", f"invalid YAML: {problem}")]) from None
    except (ValueError, TypeError, RecursionError) as exc:
        # ruamel's constructors raise these on malformed scalars and on
        # pathological nesting; still the spec's fault, still one line.
        first = (str(exc).splitlines() or [type(exc).__name__])[0]
        raise SpecError([SpecIssue(path, 1, "", f"invalid YAML: {first}")]) from None
    if not isinstance(doc, CommentedMap):
        raise SpecError([SpecIssue(path, 1, "", "the spec must be a mapping with keys "
                                   "target, shapes, fallback")])
    non_text: list[tuple] = []
    try:
        plain = safety.plain_bounded(doc, non_text)
    except safety.LimitExceeded as exc:
        raise SpecError([SpecIssue(path, exc.line, "", f"spec too large: {exc}")]) from None
    target, shapes, fallback, left_out, issues = _typed_parts(path, doc, plain)
    issues += [_non_text_key_issue(path, doc, loc) for loc in non_text]
    annotations = {name: f.annotation for name, f in EntrySpec.model_fields.items()}
    checker = Checker(target, shapes, fallback, annotations,
                      lambda loc: _line_of(doc, loc, key_line=False), left_out)
    issues += [SpecIssue(path, _line_of(doc, p.loc, p.key_line), _path(p.loc), p.message)
               for p in checker.run()]
    if issues:
        raise SpecError(issues)
    name_line = _line_of(doc, ("target", "name"), False)
    return Spec(path, text, target, tuple(s for _, s in shapes), fallback, name_line)

def load_spec(path: str | Path) -> Spec:
    """Read and validate one spec file (UTF-8, at most safety.MAX_SPEC_BYTES)."""
    p = Path(path)
    shown = safety.printable(str(path))
    try:
        data = safety.read_spec_bytes(p)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise SpecError([SpecIssue(shown, None, "", f"cannot read: {reason}")]) from None
    except ValueError as exc:
        raise SpecError([SpecIssue(shown, None, "", f"cannot read: {exc}")]) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        byte = data[exc.start]
        raise SpecError([SpecIssue(shown, line, "", f"not UTF-8 text (byte 0x{byte:02x} at "
                                   f"offset {exc.start})")]) from None
    return parse_spec(text, shown)
