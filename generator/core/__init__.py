"""The build stages, torch-free: contract, spec, registry, plan, render, emit.

`gen build` imports only this package (and jinja2, pydantic, ruamel.yaml).
"""
