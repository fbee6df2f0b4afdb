"""Code generator for MLA decode attention submissions (GPU MODE amd-mixed-mla).

generator.core: the torch-free build stages, one module each: spec (load +
validate YAML) -> planner with the backend registry (a typed Plan) -> render
(Jinja2 templates) -> emit (atomic write, staleness check).
generator.gpu: what runs a generated file on a GPU (or Triton's interpreter):
inputs, references, check and bench, all through harness.build_module.
generator.resources: the resource report (gen resources): every kernel of a
build compiled ahead of time for its target GPU on a CPU, and what it costs.
"""

__version__ = "0.3.0"
