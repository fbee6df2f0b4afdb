"""The build stages, torch-free: contract, spec, registry, plan, render, emit,
and the occupancy arithmetic of the resource report.

`gen build` imports only this package (and jinja2, pydantic, ruamel.yaml).
"""
