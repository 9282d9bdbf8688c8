# Every target sets itself up on a fresh machine: a .venv, the installs, any code generation.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha1sum | cut -c1-12)
# Generated from proto/ (git-ignored): Python messages, stubs and typed .pyi in gen/python.
GEN := gen/python/canasta/v1/engine_service_pb2.py
PROTOS := $(wildcard proto/canasta/v1/*.proto)
BUF := npx -y @bufbuild/buf@1.75.0
# make run: with no CANASTA_SEAL_KEYS, seal with a local development key file (made on first run).
DEV_KEY_FILE ?= .dev-keys/seal.keys

.PHONY: setup run demo test lint bench clean

setup: $(STAMP) $(GEN)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	rm -f $(VENV)/.installed-* && touch $(STAMP)

$(GEN): $(STAMP) $(PROTOS) service/codegen.py
	$(PY) -m service.codegen

run: setup
	CANASTA_DEV_KEY_FILE="$${CANASTA_DEV_KEY_FILE:-$(DEV_KEY_FILE)}" $(PY) -m service

demo: $(STAMP)
	$(PY) -m service.demo

lint: setup
	$(VENV)/bin/ruff check engine service tests bench
	$(VENV)/bin/mypy --strict engine
	$(VENV)/bin/mypy --strict service
	$(BUF) lint

test: setup lint
	$(PY) -m pytest -n 2 engine tests

bench: setup
	$(PY) bench/engine_bench.py
	$(PY) bench/service_bench.py

clean:
	rm -rf $(VENV) gen .pytest_cache .mypy_cache .ruff_cache
