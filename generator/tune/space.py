"""Which entries `gen tune` tries for a shape: its search space and the order.

A shape's space is its backend's `search_space` in the registry, or the
entry's own `tune:` mapping in its place (field -> values; `backend` may be
listed too). A candidate is the entry the spec would hold: the current entry's
fields with some of them changed. Candidates come in a fixed order, the most
informative first, so that a budget cuts the tail: the current entry, then
every change of one field, then every change of two fields, then the rest of
the product of the space. (The first H200 run measured 70 of 144 candidates
in its time limit and missed the winner, a change of two fields, because the
product reached it late: PERF.md, 2026-11-30.)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from dataclasses import dataclass
from typing import Any

from generator.core import registry
from generator.core.spec import ShapeSpec


@dataclass(frozen=True)
class Space:
    """One shape's search space: field -> values, in the order they vary."""

    index: int  # the shape's position in spec.shapes
    tag: str
    axes: tuple[tuple[str, tuple], ...]
    # Where the space comes from: the entry's `tune:` or the registry.
    origin: str
    # Fields an entry inherits from its target (target.triton_options): a
    # candidate leaves one unset when its value is the inherited one.
    inherited: tuple[tuple[str, Any], ...] = ()

    @property
    def size(self) -> int:
        """Points in the product of the axes (distinct entries may be fewer)."""
        n = 1
        for _, values in self.axes:
            n *= len(values)
        return n

    def __str__(self) -> str:
        axes = "; ".join(f"{name}: {', '.join(_show(v) for v in values)}"
                         for name, values in self.axes)
        return f"{self.tag}: {self.size} points ({self.origin}): {axes or 'nothing to vary'}"


@dataclass(frozen=True)
class Candidate:
    """One entry to try for a shape, as the spec would hold it (backend first,
    then the fields it sets), printed as `k: v` pairs."""

    index: int
    tag: str
    fields: tuple[tuple[str, Any], ...]
    current: bool = False

    @property
    def backend(self) -> str:
        return dict(self.fields)["backend"]

    def as_dict(self) -> dict[str, Any]:
        return dict(self.fields)

    def __str__(self) -> str:
        return ", ".join(f"{k}: {_show(v)}" for k, v in self.fields)


def _show(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def space_for(shape: ShapeSpec, index: int, tag: str, platform: str,
              inherited: Mapping[str, Any] = MappingProxyType({})) -> Space:
    """The shape's space: its `tune:` entry if it has one, else its backend's
    registry space on the target's platform, for the shape. inherited: the
    target's triton_options."""
    kept = tuple(sorted(inherited.items()))
    if shape.tune is not None:
        return Space(index, tag, tuple((k, tuple(v)) for k, v in shape.tune.items()),
                     "the entry's tune:", kept)
    space = registry.BACKENDS[shape.backend].space_for(platform, shape.num_heads, shape.kv_len)
    return Space(index, tag, tuple((k, tuple(v)) for k, v in space.items()),
                 f"registry search_space of {shape.backend}", kept)


def candidate_for(shape: ShapeSpec, index: int, tag: str, platform: str,
                  change: dict[str, Any], inherited: tuple[tuple[str, Any], ...] = ()) -> Candidate:
    """The entry `shape` becomes with `change` applied. Fields the (new) backend
    does not take are dropped; a changed value equal to the backend's default
    (or to what the entry inherits from its target) is left unset unless the
    entry already sets that field, so a write-back adds no field the file did
    not need."""
    current = {"backend": shape.backend, **shape.tuning()}
    backend = registry.BACKENDS[change.get("backend", shape.backend)]
    defaults = {**backend.defaults_for(platform), **dict(inherited)}
    fields = {"backend": backend.name}
    for name, value in current.items():
        if name != "backend" and name in backend.fields:
            fields[name] = value
    for name, value in change.items():
        if name == "backend" or name not in backend.fields:
            continue
        if name not in current and defaults.get(name) == value:
            continue
        fields[name] = value
    return Candidate(index, tag, tuple(fields.items()), current=fields == current)


def candidates(shape: ShapeSpec, space: Space, platform: str) -> Iterator[Candidate]:
    """Every distinct entry of the space, the current entry first, then each
    change of one field (axis by axis), then each change of two fields (pairs of
    axes in order), then the remaining points of the product."""
    seen: set[tuple] = set()

    def fresh(change: dict[str, Any]) -> Candidate | None:
        cand = candidate_for(shape, space.index, space.tag, platform, change, space.inherited)
        key = tuple(sorted(cand.fields, key=lambda kv: kv[0]))
        if key in seen:
            return None
        seen.add(key)
        return cand

    first = fresh({})
    yield first
    for name, values in space.axes:
        for value in values:
            cand = fresh({name: value})
            if cand is not None:
                yield cand
    for (a, a_values), (b, b_values) in itertools.combinations(space.axes, 2):
        for va, vb in itertools.product(a_values, b_values):
            cand = fresh({a: va, b: vb})
            if cand is not None:
                yield cand
    names = [name for name, _ in space.axes]
    for point in itertools.product(*(values for _, values in space.axes)):
        cand = fresh(dict(zip(names, point)))
        if cand is not None:
            yield cand
