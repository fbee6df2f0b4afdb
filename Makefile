# Two entry points (see README):
#   make build   set up .venv (no torch needed) and run `gen build` on specs/*.yaml
#   make test    set up the test extras (CPU torch, triton's interpreter) and run the suite
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: build test clean

$(VENV)/.base: pyproject.toml
	python3 -m venv $(VENV)
	mkdir -p .setuptools-build
	$(PY) -m pip install -q -e .
	touch $@

# torch 2.13.0 first, alone: pip takes the CPU build from this machine's disk
# instead of resolving a multi-GB CUDA build through the extras.
$(VENV)/.test: $(VENV)/.base
	$(PY) -m pip install -q "torch==2.13.0"
	$(PY) -m pip install -q -e ".[test]"
	touch $@

build: $(VENV)/.base
	$(VENV)/bin/gen build

test: $(VENV)/.test
	$(VENV)/bin/pytest -q
	$(VENV)/bin/gen build --check

clean:
	rm -rf $(VENV)
