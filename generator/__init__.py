"""Code generator for MLA decode attention submissions (GPU MODE amd-mixed-mla).

Stages, one module each: spec (load + validate YAML) -> plan (derive every
value) -> render (Jinja2 templates) -> emit (atomic write, staleness check).
check and bench exercise a generated file on a GPU (or Triton's interpreter).
"""

__version__ = "0.3.0"
