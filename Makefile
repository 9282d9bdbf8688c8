# Every target sets itself up on a fresh machine: a .venv, the installs, any code generation.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# Every Python dependency is pinned with hashes in requirements/ (make lock): dev.txt for this
# venv, runtime.txt and build.txt for the image (deploy/Dockerfile). The stamp follows the
# pyproject.toml files and the lock, so a changed lock reinstalls.
LOCK_DEV := requirements/dev.txt
PROTOS := $(wildcard proto/canasta/v1/*.proto)
# Local packages installed beside the service: the Python SDK (its build generates its
# canasta.v1 from proto/, so the stamp follows proto/ too) and the terminal table on it
# (canasta play). Their dependencies are the service's, already in the lock.
LOCAL_PKGS := clients/python clients/terminal
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml $(LOCK_DEV) \
  $(LOCAL_PKGS:%=%/pyproject.toml) $(PROTOS) | sha1sum | cut -c1-12)
# make run needs no test tool: on a fresh machine it installs build.txt alone (the runtime set
# plus what builds the service: protoc's plugins for gen/ and mypyc for the engine, pinned as in
# dev.txt), and make test adds the rest of dev.txt to the same venv later. A venv that already
# has the dev set has all of build.txt, so make run after make test installs nothing.
LOCK_RUN := requirements/build.txt
RUN_STAMP := $(VENV)/.runtime-$(shell cat pyproject.toml $(LOCK_RUN) \
  $(LOCAL_PKGS:%=%/pyproject.toml) $(PROTOS) | sha1sum | cut -c1-12)
# Generated from proto/ (git-ignored): Python messages, stubs and typed .pyi in gen/python.
GEN := gen/python/canasta/v1/engine_service_pb2.py
BUF := npx -y @bufbuild/buf@1.75.0
# make run: with no CANASTA_SEAL_KEYS, seal with a local development key file (made on first run).
DEV_KEY_FILE ?= .dev-keys/seal.keys
# The browser test of the web table (tests/web): Debian's chromium and playwright-core (npm ci).
CHROMIUM ?= /usr/bin/chromium
WEB_DEPS := tests/web/node_modules/.package-lock.json

.PHONY: help setup native run host demo test lint bench bench-bots fuzz soak clean sdks sdk-test proto-baseline web-setup lock \
  promtool-setup kustomize-setup

# make (no target) sets up; make help lists the targets from their '## ' notes.
.DEFAULT_GOAL := setup
help:  ## this list
	@awk -F':.*## ' '/^[a-z-]+:.*## / {printf "  make %-16s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

setup: $(STAMP) $(GEN) native  ## the venv, generated code and the compiled engine (every target does this itself)

# The engine compiled with mypyc into engine/_native (git-ignored): a few minutes the first
# time, then skipped while the engine's sources are unchanged (deploy/compile_engine.py).
# NATIVE=0 leaves the engine in plain Python (the same rules; engine/build.py picks at import).
NATIVE ?= 1
native: $(RUN_STAMP)  ## compile the engine with mypyc (NATIVE=0: plain Python)
ifneq ($(NATIVE),0)
	@$(PY) deploy/compile_engine.py || { echo "make: the mypyc compile failed (see above);" \
	  "NATIVE=0 runs the engine as plain Python"; exit 1; }
endif

# The locked dependencies, each file's hash checked, then the project and the local packages
# alone (editable, built with the locked setuptools: nothing unpinned is downloaded).
$(STAMP): pyproject.toml $(LOCK_DEV)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --require-hashes -r $(LOCK_DEV)
	$(PY) -m pip install -q --no-deps --no-build-isolation -e . $(LOCAL_PKGS:%=-e %)
	rm -f $(VENV)/.installed-* && touch $(STAMP)

$(RUN_STAMP): pyproject.toml $(LOCK_RUN)
	@if test -f $(STAMP); then touch $@; else \
	  echo "make run: installing the service's runtime (requirements/build.txt, no test tools) into $(VENV)"; \
	  { test -x $(PY) || $(PYTHON) -m venv $(VENV); } && \
	  $(PY) -m pip install -q --require-hashes -r $(LOCK_RUN) && \
	  $(PY) -m pip install -q --no-deps --no-build-isolation -e . $(LOCAL_PKGS:%=-e %) && \
	  rm -f $(VENV)/.runtime-* && touch $@; fi

# Regenerate the lock files from pyproject.toml with uv (pinned with hashes in
# requirements/lock-tool.txt, installed into .cache/lock). Pins already in a lock are kept
# where they still fit; LOCK_ARGS=--upgrade (or --upgrade-package NAME) moves them on.
# runtime.txt and build.txt are constrained by dev.txt: the image gets the versions tested.
LOCK_VENV := .cache/lock
UV := $(LOCK_VENV)/bin/uv
LOCK_ARGS ?=
LOCK_FLAGS := --generate-hashes --universal --python-version 3.11 --quiet \
  --custom-compile-command "make lock" $(LOCK_ARGS)
lock: $(UV)  ## re-pin requirements/ after a dependency change (LOCK_ARGS=--upgrade moves them)
	UV_CACHE_DIR=$(LOCK_VENV)/cache $(UV) pip compile $(LOCK_FLAGS) requirements/lock-tool.in \
	  -o requirements/lock-tool.txt
	UV_CACHE_DIR=$(LOCK_VENV)/cache $(UV) pip compile $(LOCK_FLAGS) pyproject.toml --extra dev \
	  -o requirements/dev.txt
	UV_CACHE_DIR=$(LOCK_VENV)/cache $(UV) pip compile $(LOCK_FLAGS) pyproject.toml \
	  -c requirements/dev.txt -o requirements/runtime.txt
	UV_CACHE_DIR=$(LOCK_VENV)/cache $(UV) pip compile $(LOCK_FLAGS) pyproject.toml \
	  --extra codegen --extra native -c requirements/dev.txt -o requirements/build.txt

$(UV): requirements/lock-tool.txt
	test -x $(LOCK_VENV)/bin/python || $(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/python -m pip install -q --require-hashes -r requirements/lock-tool.txt
	touch $(UV)

$(GEN): $(RUN_STAMP) $(PROTOS) service/codegen.py
	$(PY) -m service.codegen

# What the browser test needs; chromium comes from apt when missing (as root; else the test skips).
web-setup: $(WEB_DEPS)  ## the browser test's playwright-core (npm ci)
	@test -x $(CHROMIUM) || { if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "web-setup: cannot install chromium here (not root or no apt): the browser test will skip"; fi; }

# promtool checks the alert rules (tests/deploy); it comes with Debian's prometheus package.
promtool-setup:  ## promtool for the alert rules' tests
	@command -v promtool >/dev/null || { if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null; \
	  else echo "promtool-setup: cannot install prometheus here (not root or no apt): the promtool test will skip"; fi; }

# kustomize renders k8s/ for tests/deploy: the pinned release, built by `go install` through the
# Go module proxy into .cache/tools/bin (git-ignored; the build's caches are dropped after);
# rebuilt when the pin changes.
KUSTOMIZE_VERSION := v5.7.1
KUSTOMIZE := .cache/tools/bin/kustomize
kustomize-setup:  ## kustomize for the Kubernetes tests
	@$(KUSTOMIZE) version 2>/dev/null | grep -qx $(KUSTOMIZE_VERSION) || { \
	  echo "kustomize-setup: building kustomize $(KUSTOMIZE_VERSION) (about a minute)"; \
	  GOBIN=$(abspath .cache/tools/bin) GOMODCACHE=$(abspath .cache/tools/go/mod) \
	  GOCACHE=$(abspath .cache/tools/go/build) GOFLAGS=-modcacherw GOTOOLCHAIN=local \
	  go install sigs.k8s.io/kustomize/kustomize/v5@$(KUSTOMIZE_VERSION) \
	  && rm -rf .cache/tools/go; }

$(WEB_DEPS): tests/web/package.json tests/web/package-lock.json
	npm ci --prefix tests/web --no-audit --no-fund

# NATIVE=0 runs the engine as plain Python even where an earlier make compiled it (the
# compiled build is picked at import whenever it is current: engine/build.py): run, host, demo.
PURE_ENGINE := $(if $(filter 0,$(NATIVE)),CANASTA_ENGINE=pure)
run: $(RUN_STAMP) $(GEN) native  ## the service: gRPC on 127.0.0.1:50051, REST and the web table on :8080
	$(PURE_ENGINE) CANASTA_DEV_KEY_FILE="$${CANASTA_DEV_KEY_FILE:-$(DEV_KEY_FILE)}" $(PY) -m service

# The reference game host (examples/host/README.md) with a rules service beside it: the
# host's page on CANASTA_HOST_PORT (8090), its tables in CANASTA_HOST_DB (.cache/host/tables.db).
# The service listens for gRPC where CANASTA_HOST_RULES points (127.0.0.1:50051), its REST face
# on any free port (CANASTA_HTTP_PORT); Ctrl-C stops both. A service already listening there
# (make run in another terminal) is used as it is: a second one could not bind the port.
CANASTA_HOST_RULES ?= 127.0.0.1:50051
# host:port, or [v6 address]:port (the brackets dropped for the bind address)
HOST_RULES_PORT = $(lastword $(subst :, ,$(CANASTA_HOST_RULES)))
HOST_RULES_BIND = $(patsubst [%],%,$(patsubst %:$(HOST_RULES_PORT),%,$(CANASTA_HOST_RULES)))
host: setup  ## the reference game host on :8090 with a rules service beside it
	@if $(PY) -c 'import socket; socket.create_connection(("$(HOST_RULES_BIND)", $(HOST_RULES_PORT)), 1).close()' 2>/dev/null; then \
	  echo "make host: a rules service already listens on $(CANASTA_HOST_RULES) (make run?): the host uses it"; \
	else \
	  CANASTA_DEV_KEY_FILE="$${CANASTA_DEV_KEY_FILE:-$(DEV_KEY_FILE)}" \
	  CANASTA_BIND="$${CANASTA_BIND:-$(HOST_RULES_BIND)}" \
	  CANASTA_GRPC_PORT="$${CANASTA_GRPC_PORT:-$(HOST_RULES_PORT)}" \
	  CANASTA_HTTP_PORT="$${CANASTA_HTTP_PORT:-0}" \
	  $(PURE_ENGINE) $(PY) -m service & rules=$$!; \
	  trap 'kill $$rules 2>/dev/null; wait $$rules' EXIT; \
	fi; \
	$(PURE_ENGINE) CANASTA_HOST_RULES=$(CANASTA_HOST_RULES) $(PY) -m examples.host

demo: $(RUN_STAMP) $(GEN)  ## a bot hand in the terminal
	$(PURE_ENGINE) $(PY) -m service.demo

lint: setup  ## ruff, mypy --strict, buf lint and breaking, hadolint
	$(VENV)/bin/ruff check engine service tests bench deploy examples clients/sdkgen.py clients/sdktest.py clients/python/src/canasta_client clients/python/tests clients/terminal
	$(VENV)/bin/mypy --strict engine
	$(VENV)/bin/mypy --strict service
	$(VENV)/bin/mypy --strict clients/terminal/src
	$(VENV)/bin/mypy --strict examples/host
	$(BUF) lint
	$(BUF) breaking --against proto/buf-image.binpb --exclude-imports
	$(VENV)/bin/hadolint deploy/Dockerfile

# The engine's doctests run on its source build (a compiled function keeps no doctest);
# tests/test_build.py checks the compiled build plays exactly as the source one.
test: setup lint web-setup promtool-setup kustomize-setup  ## the whole check: lint, every test, make sdk-test
	CANASTA_ENGINE=pure $(PY) -m pytest -q engine
	$(PY) -m pytest -n 2 tests
	$(MAKE) --no-print-directory sdk-test

bench: setup  ## the benchmarks: tables, and bench/results/*.json
	$(PY) bench/engine_bench.py
	$(PY) bench/service_bench.py
	$(PY) bench/bots_bench.py
	$(PY) bench/limits_bench.py
	$(PY) bench/slow_clients_bench.py

# The expert bot against greedy on duplicate deals (bench/expert_bench.py: 100 deals per game,
# both cores; BENCH_BOTS_ARGS, e.g. --deals 10 --budget 16 --budget 48): bench/results/expert.json.
bench-bots: setup  ## the expert bot against greedy on duplicate deals (about 80 min)
	$(PY) bench/expert_bench.py $(BENCH_BOTS_ARGS)

# The fuzzers of tests/hardening (REST from /openapi.json with schemathesis, raw gRPC bytes,
# the snapshot opener, credentials, damaged position and record texts) with FUZZ_EXAMPLES cases
# per operation and mode (make test: 55).
FUZZ_EXAMPLES ?= 1100
fuzz: setup  ## the fuzzers of tests/hardening with FUZZ_EXAMPLES cases
	CANASTA_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest -n 2 -p no:cacheprovider \
	  tests/hardening/test_openapi_fuzz.py tests/hardening/test_grpc_fuzz.py \
	  tests/hardening/test_snapshot_fuzz.py tests/hardening/test_credential_fuzz.py \
	  tests/hardening/test_text_fuzz.py

# A mixed load of legal and bad calls on a real server (bench/soak.py; SOAK_ARGS, e.g.
# --seconds 300): fails on any unexpected answer or RSS growth of 10%; bench/results/soak.json.
soak: setup  ## a mixed load of legal and bad calls on a real server
	$(PY) bench/soak.py $(SOAK_ARGS)

# SDKs in clients/: `buf generate` (buf.gen.yaml) writes the Go SDK's code, the one generated
# code in git (go get serves git); the others generate theirs when they build. clients/sdkgen.py
# also stamps clients/VERSION into every manifest. Caches go to .cache/sdk (git-ignored).
sdks: setup  ## regenerate the SDKs' code in clients/
	BUF="$(BUF)" $(PY) clients/sdkgen.py

# The sync check (committed code, versions, contract), RPC parity from the descriptors, then per
# SDK its README's install and examples in a scratch project and its own tests, on a live server.
sdk-test: setup  ## each SDK's install, examples and tests against a live server
	BUF="$(BUF)" $(PY) clients/sdktest.py

# The contract that `buf breaking` (make lint) compares against: refresh it, and commit it,
# with every compatible change of proto/ (the SDK sync check fails until then).
proto-baseline: setup  ## refresh the contract buf breaking compares against
	$(BUF) build --path proto/canasta --exclude-source-info -o proto/buf-image.binpb

clean:  ## remove the venv, generated code and caches
	rm -rf $(VENV) gen .pytest_cache .mypy_cache .ruff_cache engine/_native
	rm -rf .cache clients/typescript/node_modules clients/typescript/dist clients/java/target
	rm -rf tests/web/node_modules tests/artifacts
