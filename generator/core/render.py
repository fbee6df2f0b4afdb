"""Stage 3: render a Plan into the source of submission.py with Jinja2.

One environment, made here: StrictUndefined (a typo in a template is an error,
not empty text), trim/lstrip blocks, trailing newline kept. The output is
parsed with ast before anyone writes it.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import sys
from functools import lru_cache
from pathlib import Path

import jinja2

from generator import __version__
from generator.core import safety
from generator.core.contract import E2M1_VALUES, KV_LORA, QK_DIM, ROPE_DIM
from generator.core.plan import Dtype, Dyn, Plan
from generator.core.spec import Spec
from generator.errors import GenError, UserError


def _template_dir() -> Path:
    """The templates: shipped inside the package by a wheel (generator/templates),
    else the checkout's top-level templates/ (editable install, source tree)."""
    package = Path(__file__).resolve().parents[1]
    shipped = package / "templates"
    return shipped if shipped.is_dir() else package.parent / "templates"


TEMPLATE_DIR = _template_dir()


def literal(value) -> str:
    """A plan value as a Python literal: True, 16, 0.013392857142857142,
    "kernel", tl.float16. A float keeps its repr (every digit), so a scale
    survives the trip through the generated file exactly."""
    if isinstance(value, Dtype):
        return f"tl.{value.name}"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (bool, int, float)):
        return repr(value)
    raise GenError(f"no literal for plan value {value!r}")


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The one Jinja environment. Text that comes from a spec reaches the
    output only through a filter made for its context (generator/core/safety.py):
    py_str (a string literal), comment (one comment line), docstring (inside
    triple double quotes), header_line (re-checked header line)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATE_DIR)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters["literal"] = literal
    # name -> name if it is in names, else "None" (a pointer a kernel does not take)
    env.filters["or_none"] = lambda name, names: name if name in names else "None"
    env.filters["extract"] = lambda key, mapping: mapping[key]
    env.tests["dyn"] = lambda value: isinstance(value, Dyn)
    env.filters.update(
        py_str=safety.py_str,
        comment=safety.comment,
        docstring=safety.docstring,
        header_line=safety.header_line,
    )
    env.globals.update(qk_dim=QK_DIM, kv_lora=KV_LORA, rope_dim=ROPE_DIM, e2m1_values=E2M1_VALUES)
    return env


def template_files() -> list[Path]:
    return sorted(p for p in TEMPLATE_DIR.rglob("*.j2") if p.is_file())


def inputs_hash(spec: Spec) -> str:
    """Hash of what determines the output: spec text, templates, generator version."""
    h = hashlib.sha256()
    h.update(__version__.encode())
    h.update(spec.text.encode())
    for path in template_files():
        h.update(path.relative_to(TEMPLATE_DIR).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _top_lines_problem(plan: Plan) -> str | None:
    """Why the text that goes into the file's first comment lines (header
    lines, then the spec's path) would declare a source encoding, or None:
    Python decodes the whole file with one declared in line 1 or 2 (PEP 263).
    Any of them may land there, so all are checked."""
    for line in plan.header:
        declared = safety.encoding_declaration(line)
        if declared:
            return (f"header line {line!r} declares the source encoding {declared!r} "
                    "(PEP 263): refused")
    declared = safety.encoding_declaration(safety.comment(plan.spec_path))
    if declared:
        return (f"the spec's path {safety.comment(plan.spec_path)!r}, written into a comment "
                f"at the top of the generated file, would declare its source encoding "
                f"{declared!r} there (PEP 263): rename the spec file (no 'coding:' or "
                "'coding=' in its path)")
    return None


def render(plan: Plan, spec: Spec) -> str:
    """The generated submission's source; raises GenError if it is not valid
    Python, UserError if its bytes could be read as another program (a source
    encoding declared by what the spec put in its first lines)."""
    problem = _top_lines_problem(plan)
    if problem:
        raise UserError(f"{safety.printable(plan.spec_path)}: {problem}")
    if os.environ.get("GEN_DEBUG", "") >= "1":
        print(json.dumps(plan.describe(), indent=2, default=str), file=sys.stderr)
    source = environment().get_template("submission.py.j2").render(
        plan=plan,
        version=__version__,
        inputs_hash=inputs_hash(spec),
    )
    if os.environ.get("GEN_DEBUG", "") >= "2":
        print(source, file=sys.stderr)
    try:
        ast.parse(source)
    except SyntaxError as exc:
        raise GenError(
            f"rendered {plan.target} submission is not valid Python: line {exc.lineno}: {exc.msg}"
        ) from None
    problem = safety.encoded_as_utf8_problem(source)
    if problem:
        raise UserError(f"{safety.printable(plan.spec_path)}: the generated file is refused: "
                        f"{problem}")
    return source
