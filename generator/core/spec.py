"""Stage 1: load a spec file and reject anything wrong before any other stage runs.

Types and unknown keys are checked by pydantic models; the rules that depend on
the target and the backend registry (which backend runs where, which fields it
takes, powers of two, duplicate shapes) are checked here after. Every problem
is reported at once, each with file:line (from the YAML node), field path, the
bad value and what is allowed.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

from generator.core import registry, safety
from generator.core.contract import DEFAULT_HEADS, FP8_FORMATS
from generator.core.occupancy import ARCHS
from generator.core.registry import MERGES, MMA_DTYPES, MMA_M, PLATFORMS, TARGET_TRITON_OPTIONS
from generator.errors import SpecError, SpecIssue, did_you_mean, one_of


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


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
    mma_m: str | None = None
    v_reload: bool | None = None
    merge: str | None = None
    persistent: bool | None = None
    q_absmax: float | None = None
    v_parts: int | None = None
    v_buffers: int | None = None
    overlap_scores: bool | None = None
    prefetch_v: bool | None = None
    v_lookahead: bool | None = None
    v_row_pairs: bool | None = None
    v_row_swap: bool | None = None
    pv_format: str | None = None
    v_early: bool | None = None
    max_registers: int | None = None
    pdl: bool | None = None
    speculate: bool | None = None
    tma_tile: bool | None = None
    stagger: bool | None = None
    lazy_rescale: bool | None = None
    late_fill: bool | None = None
    q_fill: bool | None = None
    dv_split: int | None = None
    consumers: int | None = None
    partials: str | None = None
    claim_tiles: bool | None = None
    early_refill: bool | None = None
    compact_lse: bool | None = None
    merge_poll: str | None = None
    l2_policy: str | None = None
    # Waivers of the resource report's rules, each a reason (registry.WAIVERS):
    # this entry's kernels may spill registers / have their wgmmas serialised.
    allow_spills: str | None = None
    allow_serialized_wgmma: str | None = None
    qk_scaled: bool | None = None
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

_TYPE_WORDS = {
    "int_type": "an integer",
    "int_parsing": "an integer",
    "float_type": "a number",
    "bool_type": "true or false",
    "string_type": "a string",
    "list_type": "a list",
    "dict_type": "a mapping",
    "model_type": "a mapping",
    "model_attributes_type": "a mapping",
}


def _fields_of(loc: tuple) -> list[str]:
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
    if kind in _TYPE_WORDS:
        msg = f"{value!r} is not {_TYPE_WORDS[kind]}"
    elif kind == "literal_error":
        msg = f"{value!r} is not allowed (allowed: {err['ctx']['expected']})"
    else:
        msg = f"{value!r}: {err['msg']}"
    return SpecIssue(file, line, _path(loc), msg)


# --------------------------------------------------------------------------
# Rules that need the target and the registry
# --------------------------------------------------------------------------


def _is_pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


# field -> (predicate, what is allowed)
_RANGES = {
    "splits": (lambda v: 1 <= v <= 256, "an integer from 1 to 256"),
    "block_n": (lambda v: _is_pow2(v) and 16 <= v <= 256, "a power of two from 16 to 256"),
    "block_q": (lambda v: _is_pow2(v) and v <= 8, "a power of two from 1 to 8"),
    "num_warps": (lambda v: v in (1, 2, 4, 8, 16), "one of 1, 2, 4, 8, 16"),
    "num_stages": (lambda v: 1 <= v <= 8, "an integer from 1 to 8"),
    "reduce_block_dv": (
        lambda v: _is_pow2(v) and 16 <= v <= 512,
        "a power of two from 16 to 512",
    ),
    "mma_dtype": (lambda v: v in MMA_DTYPES, f"one of {one_of(MMA_DTYPES)}"),
    "mma_m": (lambda v: v in MMA_M, f"one of {one_of(MMA_M)}"),
    "merge": (lambda v: v in MERGES, f"one of {one_of(MERGES)}"),
    "q_absmax": (lambda v: 0 < v < 1e4, "a number above 0 and below 10000"),
    "max_registers": (lambda v: v == 0 or 24 <= v <= 255,
                      "0 (the compiler's choice) or an integer from 24 to 255"),
    **{w: (lambda v: bool(v.strip()), f"a reason (say why {what})")
       for w, what in registry.WAIVERS.items()},
}

# Triton's backend name for each platform (occupancy.Arch.vendor).
_VENDOR = {"cuda": "cuda", "rocm": "hip"}

_KEY_RANGES = {
    "batch": (1, 65536),
    "kv_len": (1, 1 << 22),
    "q_seq_len": (1, 64),
    "num_heads": (1, 128),
}


def _type_problem(field: str, value) -> str | None:
    """Why `value` has the wrong type for an entry's `field`, or None."""
    try:
        TypeAdapter(EntrySpec.model_fields[field].annotation).validate_python(value, strict=True)
    except ValidationError as exc:
        kind = exc.errors()[0]["type"]
        return f"{value!r} is not {_TYPE_WORDS.get(kind, 'of the right type')}"
    return None


def _value_problem(backend, field: str, value) -> str | None:
    """Why `value` is not allowed for `field` of `backend` (a field it takes), or None."""
    name = backend.name
    if field == "q_mode" and value not in backend.q_modes:
        return (f"{value!r} is not a Q mode of backend {name!r}"
                f"{did_you_mean(value, backend.q_modes)} (allowed: {one_of(backend.q_modes)})")
    if field == "kv_format" and value not in backend.kv_formats:
        return (f"{value!r} is not a KV format of backend {name!r}"
                f"{did_you_mean(value, backend.kv_formats)} "
                f"(allowed: {one_of(backend.kv_formats)})")
    if field in _RANGES and not _RANGES[field][0](value):
        return f"{value!r} is not {_RANGES[field][1]}"
    if field in backend.choices and value not in backend.choices[field]:
        return (f"{value!r} is not a {field} of backend {name!r} "
                f"(allowed: {one_of(backend.choices[field])})")
    return None


class _Checker:
    def __init__(self, file: str, doc: Any, spec: SpecFile):
        self.file, self.doc, self.spec = file, doc, spec
        self.issues: list[SpecIssue] = []

    def add(self, loc: tuple, msg: str, key_line: bool = False) -> None:
        line = _line_of(self.doc, loc, key_line)
        self.issues.append(SpecIssue(self.file, line, _path(loc), msg))

    def run(self) -> list[SpecIssue]:
        self.target()
        available = self.available_backends()
        for i, shape in enumerate(self.spec.shapes):
            self.shape_key(("shapes", i), shape)
            self.entry(("shapes", i), shape, available)
        self.duplicates()
        self.entry(("fallback",), self.spec.fallback, available, fallback=True)
        return self.issues

    def available_backends(self) -> list[str]:
        t = self.spec.target
        return [
            name
            for name, b in registry.BACKENDS.items()
            if t.platform in b.platforms and (t.aiter or not b.needs_aiter)
        ]

    def target(self) -> None:
        t = self.spec.target
        if not safety.valid_target_name(t.name):
            self.add(("target", "name"), f"{t.name!r} is not a target name (allowed: "
                     f"{safety.TARGET_NAME_PATTERN}: a letter, then letters, digits or "
                     "underscores; at most 64 characters)")
        aiter_platforms = sorted({p for b in registry.BACKENDS.values() if b.needs_aiter
                                  for p in b.platforms})
        if t.aiter and t.platform not in aiter_platforms:
            self.add(("target", "aiter"), f"aiter needs platform "
                     f"{' or '.join(map(repr, aiter_platforms))}, not {t.platform!r}")
        allowed = TARGET_TRITON_OPTIONS[t.platform]
        for key in t.triton_options:
            if key not in allowed:
                hint = did_you_mean(key, allowed)
                what = one_of(allowed) if allowed else "none on this platform"
                self.add(
                    ("target", "triton_options", key),
                    f"{key!r} is not a Triton option of platform {t.platform!r}{hint}"
                    f" (allowed: {what})",
                    key_line=True,
                )
        for i, line in enumerate(t.header):
            if not safety.valid_header_line(line):
                self.add(("target", "header", i), f"{line!r} is not a header line (allowed: "
                         "'#!' then printable ASCII, no control characters, at most 200 "
                         "characters)")
        for key, value in t.env.items():
            if not key.isidentifier() or not key.isascii():
                self.add(("target", "env", key), f"{key!r} is not an environment variable name",
                         key_line=True)
            if "\0" in value:
                self.add(("target", "env", key), f"{value!r}: an environment value cannot "
                         "contain a NUL byte")
        self.resources_fields(t)

    def resources_fields(self, t: TargetSpec) -> None:
        """arch and triton_version: what the resource report compiles for, and with."""
        if t.arch is not None:
            archs = [a.name for a in ARCHS.values() if a.vendor == _VENDOR[t.platform]]
            if t.arch not in archs:
                self.add(("target", "arch"), f"{t.arch!r} is not an architecture of platform "
                         f"{t.platform!r}{did_you_mean(t.arch, archs)} (allowed: {one_of(archs)})")
        if t.triton_version is not None and not re.fullmatch(r"\d+\.\d+\.\d+", t.triton_version):
            self.add(("target", "triton_version"),
                     f"{t.triton_version!r} is not a version like '3.6.0'")

    def shape_key(self, loc: tuple, shape: ShapeSpec) -> None:
        for name, (lo, hi) in _KEY_RANGES.items():
            value = getattr(shape, name)
            if not lo <= value <= hi:
                self.add(loc + (name,), f"{value} is out of range (allowed: {lo} to {hi})")

    def entry(self, loc: tuple, entry: EntrySpec, available: list[str], fallback=False) -> None:
        name = entry.backend
        if name not in registry.BACKENDS:
            self.add(loc + ("backend",), f"{name!r} is not a backend"
                     f"{did_you_mean(name, registry.BACKENDS)}"
                     f" (available: {one_of(available)})")
            return
        if name not in available:
            self.add(loc + ("backend",), f"backend {name!r} is not available on target "
                     f"{self.spec.target.name!r} (available: {one_of(available)})")
            return
        backend = registry.BACKENDS[name]
        if fallback and not backend.general:
            self.add(loc + ("backend",), f"backend {name!r} cannot be the fallback: it is not "
                     f"correct for every input (allowed: {one_of(registry.general_backends())})")
        values = entry.tuning()
        if fallback:
            for field, value in values.items():
                reason = registry.FALLBACK_FORBIDDEN.get(field, {}).get(value)
                if reason:
                    self.add(loc + (field,), f"{value!r} cannot serve the fallback: {reason}")
        for field, value in values.items():
            if field not in backend.fields:
                self.add(loc + (field,), f"does not apply to backend {name!r} "
                         f"(its fields: {one_of(backend.fields)})", key_line=True)
                continue
            problem = _value_problem(backend, field, value)
            if problem:
                self.add(loc + (field,), problem)
        if backend.field_rules is not None:
            cfg = {**backend.defaults_for(self.spec.target.platform, fallback), **values}
            for field, msg in backend.field_rules(cfg, self.spec.target.fp8_format):
                self.add(loc + (field,), msg)
        for field in backend.required:
            if field not in values:
                self.add(loc, f"{field} is required by backend {name!r}")
        if isinstance(entry, ShapeSpec):
            self.shape_limits(loc, entry, backend, values)
            if entry.tune is not None:
                self.tune_space(loc + ("tune",), entry, available)

    def tune_space(self, loc: tuple, shape: ShapeSpec, available: list[str]) -> None:
        """A shape's `tune:` space: each key a field of a backend it may try
        (its own, or those listed under `backend`), each value one that field
        allows on such a backend. Combinations are judged per candidate."""
        backends = shape.tune.get("backend", [shape.backend])
        for i, name in enumerate(backends):
            if name not in available:
                self.add(loc + ("backend", i), f"{name!r} is not a backend available on target "
                         f"{self.spec.target.name!r}{did_you_mean(name, available)} "
                         f"(available: {one_of(available)})")
        known = [registry.BACKENDS[b] for b in backends if b in available]
        if not known:
            return
        fields = [f for b in known for f in b.fields]
        for field, values in shape.tune.items():
            if field == "backend":
                continue
            owners = [b for b in known if field in b.fields]
            if not owners:
                self.add(loc + (field,), f"unknown key{did_you_mean(field, fields)}: not a field "
                         f"of backend {one_of(b.name for b in known)} (allowed: backend, "
                         f"{one_of(dict.fromkeys(fields))})", key_line=True)
                continue
            if not values:
                self.add(loc + (field,), "an empty list (give the values to try)")
            for i, value in enumerate(values):
                expected = _type_problem(field, value)
                if expected:
                    self.add(loc + (field, i), expected)
                    continue
                problems = [_value_problem(b, field, value) for b in owners]
                if all(problems):
                    self.add(loc + (field, i), problems[0])

    def shape_limits(self, loc, shape: ShapeSpec, backend, values) -> None:
        if backend.max_q_seq_len is not None and shape.q_seq_len > backend.max_q_seq_len:
            self.add(loc + ("q_seq_len",), f"{shape.q_seq_len} is more than backend "
                     f"{backend.name!r} handles (at most {backend.max_q_seq_len})")
        block_q = values.get("block_q", 1)
        heads = 1 << max(shape.num_heads - 1, 0).bit_length()
        if "block_q" in backend.fields and block_q * max(heads, 16) > 128:
            self.add(loc + ("block_q",), f"{block_q} x {max(heads, 16)} head rows exceeds the "
                     "128 query rows a program holds (lower block_q)")
        if shape.num_heads % backend.heads_multiple:
            self.add(loc + ("num_heads",), f"{shape.num_heads}: backend {backend.name!r} needs a "
                     f"multiple of {backend.heads_multiple}")
        elif backend.max_num_heads is not None and shape.num_heads > backend.max_num_heads:
            self.add(loc + ("num_heads",), f"{shape.num_heads} is more than backend "
                     f"{backend.name!r} handles (at most {backend.max_num_heads})")
        if backend.limits is not None:
            cfg = {**backend.defaults_for(self.spec.target.platform), **values}
            for field, msg in backend.limits(shape.num_heads, shape.kv_len, cfg):
                self.add(loc + (field,), msg)

    def duplicates(self) -> None:
        seen: dict[tuple, int] = {}
        for i, shape in enumerate(self.spec.shapes):
            if shape.key in seen:
                first = seen[shape.key]
                line = _line_of(self.doc, ("shapes", first), False)
                self.add(("shapes", i), f"duplicate shape (batch {shape.batch}, kv_len "
                         f"{shape.kv_len}, q_seq_len {shape.q_seq_len}, num_heads "
                         f"{shape.num_heads}) already at shapes[{first}] (line {line})")
            else:
                seen[shape.key] = i


# --------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------


def parse_spec(text: str, path: str) -> Spec:
    """Validate spec text; raise SpecError listing every problem found."""
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
    try:
        plain = safety.plain_bounded(doc)
    except safety.LimitExceeded as exc:
        raise SpecError([SpecIssue(path, exc.line, "", f"spec too large: {exc}")]) from None
    try:
        model = SpecFile.model_validate(plain)
    except ValidationError as exc:
        raise SpecError([_pydantic_issue(path, doc, e) for e in exc.errors()]) from None
    issues = _Checker(path, doc, model).run()
    if issues:
        raise SpecError(issues)
    name_line = _line_of(doc, ("target", "name"), False)
    return Spec(path, text, model.target, tuple(model.shapes), model.fallback, name_line)


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
