"""The spec's rules that need the target and the backend registry.

generator/core/spec.py types the file (pydantic) and hands over the parts that
typed; the rules here judge them: which backend runs where, which fields it
takes and their ranges, combinations a backend cannot run, shared memory
against the target architecture, the environment a target may set,
duplicate shapes. Each problem comes back as data, (location, message,
whether to point at the key), and spec.py turns the location into file:line.
Every problem of a spec is found in one pass.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from pydantic import TypeAdapter, ValidationError

from generator.core import registry, safety
from generator.core.occupancy import ARCHS, CDNA_MAX_WAVES_PER_SIMD, DEFAULT_ARCH, MAX_SHARED_PER_BLOCK
from generator.core.registry import (ENV_NAMES, MERGES, MMA_DTYPES, PLATFORM_FIELDS,
                                     TARGET_TRITON_OPTIONS)
from generator.errors import did_you_mean, one_of


class Problem(NamedTuple):
    """One problem at a location of the spec (a path of keys and indices)."""

    loc: tuple
    message: str
    key_line: bool = False


# pydantic's error kinds in words ("'four' is not an integer").
TYPE_WORDS = {
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


def _is_pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


# field -> (predicate, what is allowed), for every numeric field an entry (or
# target.triton_options) may set; a backend's `choices` may narrow them.
RANGES = {
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
    "merge": (lambda v: v in MERGES, f"one of {one_of(MERGES)}"),
    # The static fp8 scale is q_absmax / fp8_max. q is the absorbed query, of
    # unit scale in the task (randn): below 1/16 such a q is almost all
    # clipped; above 1024 its typical elements (|q| under 0.036 at 1024) fall
    # below fp8's normal range (q_absmax / 28672 for e4m3fn) and lose their
    # precision. Within the range the scale is a normal float32 and its
    # reciprocal finite.
    "q_absmax": (lambda v: 0.0625 <= v <= 1024, "a number from 0.0625 to 1024"),
    # HIP launch options (Triton's AMD backend). waves_per_eu: 0 leaves the
    # choice to the compiler; CDNA3/4 run at most 8 waves per SIMD.
    "waves_per_eu": (lambda v: 0 <= v <= CDNA_MAX_WAVES_PER_SIMD,
                     f"an integer from 0 (the compiler's choice) to {CDNA_MAX_WAVES_PER_SIMD}"),
    # the MFMA tile, 16x16 or 32x32 (0: the compiler's choice)
    "matrix_instr_nonkdim": (lambda v: v in (0, 16, 32), "one of 0 (the compiler's choice), 16, 32"),
    # operands packed per MFMA k step (gfx942; Triton sets 1 on gfx950)
    "kpack": (lambda v: v in (1, 2), "one of 1, 2"),
    **{w: (lambda v: bool(v.strip()), f"a reason (say why {what})")
       for w, what in registry.WAIVERS.items()},
}

# Triton's backend name for each platform (occupancy.Arch.vendor).
_VENDOR = {"cuda": "cuda", "rocm": "hip"}

# A version in target.stack: 2.10.0+rocm7.1, 7.1, unpinned, ...
_STACK_VALUE_RE = re.compile(r"[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}")

KEY_RANGES = {
    "batch": (1, 65536),
    "kv_len": (1, 1 << 22),
    "q_seq_len": (1, 64),
    "num_heads": (1, 128),
}


def _type_problem(annotation, value) -> str | None:
    """Why `value` does not have the type `annotation` (an entry field's), or None."""
    try:
        TypeAdapter(annotation).validate_python(value, strict=True)
    except ValidationError as exc:
        kind = exc.errors()[0]["type"]
        return f"{value!r} is not {TYPE_WORDS.get(kind, 'of the right type')}"
    return None


def value_problem(backend, field: str, value) -> str | None:
    """Why `value` is not allowed for `field` of `backend` (a field it takes), or None."""
    name = backend.name
    if field == "q_mode" and value not in backend.q_modes:
        return (f"{value!r} is not a Q mode of backend {name!r}"
                f"{did_you_mean(value, backend.q_modes)} (allowed: {one_of(backend.q_modes)})")
    if field == "kv_format" and value not in backend.kv_formats:
        return (f"{value!r} is not a KV format of backend {name!r}"
                f"{did_you_mean(value, backend.kv_formats)} "
                f"(allowed: {one_of(backend.kv_formats)})")
    if field in RANGES and not RANGES[field][0](value):
        return f"{value!r} is not {RANGES[field][1]}"
    if field in backend.choices and value not in backend.choices[field]:
        return (f"{value!r} is not a {field} of backend {name!r} "
                f"(allowed: {one_of(backend.choices[field])})")
    return None


def _platform_problem(field: str, platform: str) -> str | None:
    """Why `field` cannot be set on a target of `platform`, or None."""
    only = PLATFORM_FIELDS.get(field)
    if only and platform not in only:
        return (f"applies only on platform {' or '.join(map(repr, only))} (a HIP launch "
                f"option), not on {platform!r}")
    return None


def arch_of(target) -> str:
    """The architecture a target compiles for: its `arch`, else its platform's default."""
    return target.arch or DEFAULT_ARCH[target.platform]


class Checker:
    """Runs every rule over the parts of a spec that typed: target (or None),
    shapes as (index, ShapeSpec) pairs, fallback (or None). `annotations`:
    an entry's field -> its type (to judge `tune:` values); `line_of`: the
    line of a location (a message may name another entry's line); `left_out`:
    per part's location, the fields whose own problem (a wrong type) is
    reported already: they are not required again, and the rules on
    combinations skip that entry (they would judge a default in their place)."""

    def __init__(self, target, shapes: list[tuple[int, Any]], fallback,
                 annotations: Mapping[str, Any], line_of: Callable[[tuple], int | None],
                 left_out: Mapping[tuple, set] | None = None):
        self.t, self.shapes, self.fallback = target, shapes, fallback
        self.annotations, self.line_of = annotations, line_of
        self.left_out = left_out or {}
        self.problems: list[Problem] = []

    def add(self, loc: tuple, msg: str, key_line: bool = False) -> None:
        self.problems.append(Problem(loc, msg, key_line))

    def run(self) -> list[Problem]:
        # (a shape whose key did not type comes as its entry alone)
        keyed = [(i, s) for i, s in self.shapes if hasattr(s, "key")]
        for i, shape in keyed:
            self.shape_key(("shapes", i), shape)
        self.duplicates(keyed)
        if self.t is None:
            # Which backends exist here, their defaults and limits: all depend
            # on the target, whose own problems are reported.
            return self.problems
        self.target()
        available = self.available_backends()
        for i, shape in self.shapes:
            self.entry(("shapes", i), shape, available,
                       shape=shape if hasattr(shape, "key") else None)
        if self.fallback is not None:
            self.entry(("fallback",), self.fallback, available, fallback=True)
        return self.problems

    def available_backends(self) -> list[str]:
        t = self.t
        return [
            name
            for name, b in registry.BACKENDS.items()
            if t.platform in b.platforms and (t.aiter or not b.needs_aiter)
        ]

    # -- the target ---------------------------------------------------------

    def target(self) -> None:
        t = self.t
        if not safety.valid_target_name(t.name):
            self.add(("target", "name"), f"{t.name!r} is not a target name (allowed: "
                     f"{safety.TARGET_NAME_PATTERN}: a letter, then letters, digits or "
                     "underscores; at most 64 characters)")
        aiter_platforms = sorted({p for b in registry.BACKENDS.values() if b.needs_aiter
                                  for p in b.platforms})
        if t.aiter and t.platform not in aiter_platforms:
            self.add(("target", "aiter"), f"aiter needs platform "
                     f"{' or '.join(map(repr, aiter_platforms))}, not {t.platform!r}")
        self.triton_options()
        self.header()
        self.env()
        self.resources_fields()
        if t.stack is not None:
            self.stack_fields()

    def stack_fields(self) -> None:
        """target.stack: versions, an aiter commit and its date, each for the
        target's platform."""
        t, loc = self.t, ("target", "stack")
        for key, value in t.stack.model_dump().items():
            if value is not None and not _STACK_VALUE_RE.fullmatch(value):
                self.add(loc + (key,), f"{value!r} is not a version (allowed: letters, digits "
                         "and . + _ -, at most 64 characters; 'unpinned' where none is fixed)")
        wrong = {"cuda": "rocm", "rocm": "cuda"}[t.platform]
        if getattr(t.stack, wrong) is not None:
            self.add(loc + (wrong,), f"a {wrong} version on a {t.platform} target")
        if t.stack.aiter is not None:
            if not t.aiter:
                self.add(loc + ("aiter",), "an aiter commit on a target without aiter "
                         "(target.aiter is false)")
            if not re.fullmatch(r"[0-9a-f]{7,40}", t.stack.aiter):
                self.add(loc + ("aiter",), f"{t.stack.aiter!r} is not a commit (allowed: 7 to "
                         "40 lowercase hex digits)")
        date = t.stack.aiter_date
        if date is not None:
            if t.stack.aiter is None:
                self.add(loc + ("aiter_date",), "a date without an aiter commit")
            try:
                datetime.date.fromisoformat(date)
                valid = re.fullmatch(r"\d{4}-\d{2}-\d{2}", date) is not None
            except ValueError:
                valid = False
            if not valid:
                self.add(loc + ("aiter_date",), f"{date!r} is not a date (allowed: YYYY-MM-DD)")

    def triton_options(self) -> None:
        t = self.t
        allowed = TARGET_TRITON_OPTIONS[t.platform]
        for key, value in t.triton_options.items():
            loc = ("target", "triton_options", key)
            if key not in allowed:
                hint = did_you_mean(key, allowed)
                what = one_of(allowed) if allowed else "none on this platform"
                self.add(loc, f"{key!r} is not a Triton option of platform {t.platform!r}{hint}"
                         f" (allowed: {what})", key_line=True)
            elif not RANGES[key][0](value):
                self.add(loc, f"{value!r} is not {RANGES[key][1]}")

    def header(self) -> None:
        for i, line in enumerate(self.t.header):
            if not safety.valid_header_line(line):
                self.add(("target", "header", i), f"{line!r} is not a header line (allowed: "
                         "'#!' then printable ASCII, no control characters, at most 200 "
                         "characters)")
            elif safety.encoding_declaration(line):
                self.add(("target", "header", i), f"{line!r} declares the source encoding "
                         f"{safety.encoding_declaration(line)!r} (PEP 263: Python decodes the "
                         "generated file with it): a header line may not hold 'coding:' or "
                         "'coding=' before a name")

    def env(self) -> None:
        """target.env: names from the platform's list (registry.ENV_NAMES), short
        plain values (safety.ENV_VALUE_RE)."""
        t = self.t
        allowed = ENV_NAMES[t.platform]
        for key, value in t.env.items():
            loc = ("target", "env", key)
            if key not in allowed:
                self.add(loc, f"{safety.printable(key)!r} is not an environment variable a "
                         f"spec may set on platform {t.platform!r}{did_you_mean(key, allowed)} "
                         f"(allowed: {one_of(allowed)})", key_line=True)
            if "\0" in value:
                self.add(loc, f"{value!r}: an environment value cannot contain a NUL byte")
            elif not safety.valid_env_value(value):
                shown = value if len(value) <= 80 else value[:80] + "..."
                self.add(loc, f"{shown!r} is not an environment value a spec may set "
                         f"(allowed: {safety.ENV_VALUE_WHAT})")

    def resources_fields(self) -> None:
        """arch and triton_version: what the resource report compiles for, and with."""
        t = self.t
        if t.arch is not None:
            archs = [a.name for a in ARCHS.values() if a.vendor == _VENDOR[t.platform]]
            if t.arch not in archs:
                self.add(("target", "arch"), f"{t.arch!r} is not an architecture of platform "
                         f"{t.platform!r}{did_you_mean(t.arch, archs)} (allowed: {one_of(archs)})")
        if t.triton_version is not None and not re.fullmatch(r"\d+\.\d+\.\d+", t.triton_version):
            self.add(("target", "triton_version"),
                     f"{t.triton_version!r} is not a version like '3.6.0'")

    # -- entries ------------------------------------------------------------

    def shape_key(self, loc: tuple, shape) -> None:
        for name, (lo, hi) in KEY_RANGES.items():
            value = getattr(shape, name)
            if not lo <= value <= hi:
                self.add(loc + (name,), f"{value} is out of range (allowed: {lo} to {hi})")

    def entry(self, loc: tuple, entry, available: list[str], fallback=False, shape=None) -> None:
        name = entry.backend
        if name not in registry.BACKENDS:
            self.add(loc + ("backend",), f"{name!r} is not a backend"
                     f"{did_you_mean(name, registry.BACKENDS)}"
                     f" (available: {one_of(available)})")
            return
        if name not in available:
            self.add(loc + ("backend",), f"backend {name!r} is not available on target "
                     f"{self.t.name!r} (available: {one_of(available)})")
            return
        backend = registry.BACKENDS[name]
        platform = self.t.platform
        if fallback and not backend.general:
            self.add(loc + ("backend",), f"backend {name!r} cannot be the fallback: it is not "
                     f"correct for every input (allowed: {one_of(registry.general_backends())})")
        values = entry.tuning()
        if fallback:
            for field, value in values.items():
                reason = registry.FALLBACK_FORBIDDEN.get(field, {}).get(value)
                if reason:
                    self.add(loc + (field,), f"{value!r} cannot serve the fallback: {reason}")
        bad = set()
        for field, value in values.items():
            if field not in backend.fields:
                self.add(loc + (field,), f"does not apply to backend {name!r} "
                         f"(its fields: {one_of(backend.fields)})", key_line=True)
                continue
            problem = _platform_problem(field, platform) or value_problem(backend, field, value)
            if problem:
                self.add(loc + (field,), problem)
                bad.add(field)
        left_out = self.left_out.get(loc, set())
        for field in backend.required:
            if field not in values and field not in left_out:
                self.add(loc, f"{field} is required by backend {name!r}")
        cfg = {**backend.defaults_for(platform, fallback), **values}
        whole = not left_out & set(backend.fields)
        if backend.field_rules is not None and whole:
            for field, msg in backend.field_rules(cfg, self.t.fp8_format):
                self.add(loc + (field,), msg)
        # (a value refused above is not judged again through its size)
        if (backend.shared_floor is not None and whole
                and not bad & {"num_stages", "block_n", "kv_format"}):
            self.shared_memory(loc, backend, cfg)
        if shape is not None:
            self.shape_limits(loc, shape, backend, values, cfg, whole)
            if shape.tune is not None:
                self.tune_space(loc + ("tune",), shape, available)

    def shared_memory(self, loc: tuple, backend, cfg: Mapping[str, Any]) -> None:
        """The shared memory a program needs at least (the backend's
        shared_floor) against what one may have on the target's architecture."""
        arch = arch_of(self.t)
        need, limit = backend.shared_floor(cfg), MAX_SHARED_PER_BLOCK[arch]
        if need > limit:
            self.add(loc + ("num_stages",), f"{cfg['num_stages']} stages of block_n "
                     f"{cfg['block_n']} {cfg['kv_format']} KV tiles take at least {need} bytes "
                     f"of shared memory, more than the {limit} a program may have on {arch} "
                     "(lower num_stages or block_n)")

    def tune_space(self, loc: tuple, shape, available: list[str]) -> None:
        """A shape's `tune:` space: each key a field of a backend it may try
        (its own, or those listed under `backend`), each value one that field
        allows on such a backend. Combinations are judged per candidate."""
        backends = shape.tune.get("backend", [shape.backend])
        for i, name in enumerate(backends):
            if name not in available:
                self.add(loc + ("backend", i), f"{name!r} is not a backend available on target "
                         f"{self.t.name!r}{did_you_mean(name, available)} "
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
            wrong_platform = _platform_problem(field, self.t.platform)
            if wrong_platform:
                self.add(loc + (field,), wrong_platform, key_line=True)
                continue
            if not values:
                self.add(loc + (field,), "an empty list (give the values to try)")
            for i, value in enumerate(values):
                expected = _type_problem(self.annotations[field], value)
                if expected:
                    self.add(loc + (field, i), expected)
                    continue
                problems = [value_problem(b, field, value) for b in owners]
                if all(problems):
                    self.add(loc + (field, i), problems[0])

    def shape_limits(self, loc, shape, backend, values, cfg, whole: bool) -> None:
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
        if backend.limits is not None and whole:
            for field, msg in backend.limits(shape.num_heads, shape.kv_len, cfg):
                self.add(loc + (field,), msg)

    def duplicates(self, keyed) -> None:
        seen: dict[tuple, int] = {}
        for i, shape in keyed:
            if shape.key in seen:
                first = seen[shape.key]
                self.add(("shapes", i), f"duplicate shape (batch {shape.batch}, kv_len "
                         f"{shape.kv_len}, q_seq_len {shape.q_seq_len}, num_heads "
                         f"{shape.num_heads}) already at shapes[{first}] "
                         f"(line {self.line_of(('shapes', first))})")
            else:
                seen[shape.key] = i
