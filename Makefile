# Entry points (see README):
#   make build      set up .venv (no torch needed) and run `gen build` on specs/*.yaml
#   make test       set up the test extras (CPU torch, triton's interpreter) and run the suite,
#                   then check the committed build and its resource reports
#   make resources  rewrite build/<target>/resources.json with the specs' Triton version
VENV ?= .venv
PY := $(VENV)/bin/python
# The resource report compiles with the Triton version the specs name
# (target.triton_version; gen resources refuses another one), in a venv of its
# own: the test extras need triton 3.9 for the interpreter.
TRITON_VENV ?= .venv-triton36

.PHONY: build test resources clean

$(VENV)/.base: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q -e .
	touch $@

# torch 2.13.0 first, alone: pip takes the CPU build from this machine's disk
# instead of resolving a multi-GB CUDA build through the extras.
$(VENV)/.test: $(VENV)/.base
	$(PY) -m pip install -q "torch==2.13.0"
	$(PY) -m pip install -q -e ".[test]"
	touch $@

# torch first, alone, for the same reason; the runners build their buffers with
# it (as meta tensors) while their launches are recorded.
$(TRITON_VENV)/.ok: pyproject.toml
	python3 -m venv $(TRITON_VENV)
	$(TRITON_VENV)/bin/python -m pip install -q "torch==2.13.0"
	$(TRITON_VENV)/bin/python -m pip install -q -e ".[resources]"
	touch $@

build: $(VENV)/.base
	$(VENV)/bin/gen build

test: $(VENV)/.test $(TRITON_VENV)/.ok
	$(VENV)/bin/pytest -q
	$(VENV)/bin/gen build --check
	$(TRITON_VENV)/bin/gen resources --check

resources: $(TRITON_VENV)/.ok
	$(TRITON_VENV)/bin/gen resources --write

clean:
	rm -rf $(VENV) $(TRITON_VENV)
