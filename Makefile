# Every target sets itself up on a fresh machine: a .venv, the installs, any code generation.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha1sum | cut -c1-12)

.PHONY: setup run test lint bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	rm -f $(VENV)/.installed-* && touch $(STAMP)

run: $(STAMP)
	$(PY) -m service.demo

lint: $(STAMP)
	$(VENV)/bin/ruff check engine service tests bench
	$(VENV)/bin/mypy --strict engine

test: $(STAMP) lint
	$(PY) -m pytest -n 2 engine tests

bench: $(STAMP)
	$(PY) bench/engine_bench.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
