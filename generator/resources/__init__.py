"""The resource report (`gen resources`): a build's kernels compiled ahead of
time for the target's GPU on a CPU, and what they cost there.

Its own subpackage rather than part of core/ or gpu/: core/ must stay free of
torch and Triton (`gen build`), and gpu/ runs a generated file on a GPU with
whatever Triton that machine has, whereas this compiles for a GPU that is not
present, with the Triton version the spec names (the `resources` extra, in
.venv-triton36). report.py is torch-free (JSON, CI rules, staleness, table;
`gen build --check` uses its staleness check); aot.py needs torch and Triton
and runs in spawned worker processes. The occupancy arithmetic is pure data
and lives in core/occupancy.py, where the spec stage validates `target.arch`.
"""
