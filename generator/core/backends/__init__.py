"""One plan function per backend family: (RunnerInput, resolved fields) -> BackendPlan.

The registry (generator/core/registry.py) binds each backend to one of these
and to its template; nothing else knows which backend does what.
"""
