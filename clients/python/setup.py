"""The build's code generation: ``canasta.v1`` (messages, gRPC stubs, typed ``.pyi``).

A build from the repository (``pip install clients/python``, ``python -m build``, an
editable install) compiles ``proto/canasta`` with grpcio-tools and mypy-protobuf, the
pinned build requirements, into ``src/canasta`` (git-ignored). The sdist carries those
modules, so a build from the sdist (it has ``PKG-INFO``) needs neither ``proto/`` nor
protoc. The googleapis protos that ``proto/`` imports come from googleapis-common-protos.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
PROTO = HERE.parent.parent / "proto"
OUT = HERE / "src"
PACKAGE = OUT / "canasta" / "v1"


def plugin(name: str) -> str:
    """A mypy-protobuf plugin of the build environment (pip puts its scripts on PATH)."""
    found = shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))
    if not found:
        raise SystemExit(f"setup.py: {name} not found: is mypy-protobuf installed?")
    return found


def generate() -> None:
    """Compile every ``proto/canasta/**/*.proto`` into ``src/canasta`` (replacing it)."""
    import google.api
    import grpc_tools
    from grpc_tools import protoc

    googleapis = Path(next(iter(google.api.__path__))).parent.parent
    builtin = Path(next(iter(grpc_tools.__path__))) / "_proto"
    files = sorted(str(p.relative_to(PROTO)) for p in (PROTO / "canasta").rglob("*.proto"))
    shutil.rmtree(OUT / "canasta", ignore_errors=True)
    args = ["protoc", f"-I{PROTO}", f"-I{googleapis}", f"-I{builtin}",
            f"--plugin=protoc-gen-mypy={plugin('protoc-gen-mypy')}",
            f"--plugin=protoc-gen-mypy_grpc={plugin('protoc-gen-mypy_grpc')}",
            f"--python_out={OUT}", f"--grpc_python_out={OUT}",
            f"--mypy_out=quiet:{OUT}", f"--mypy_grpc_out=quiet:{OUT}", *files]
    if protoc.main(args) != 0:
        raise SystemExit("setup.py: protoc failed")
    # canasta/ stays a namespace package; canasta/v1 is a regular, typed one (PEP 561)
    for pkg in {p.parent for p in (OUT / "canasta").rglob("*_pb2.py")}:
        (pkg / "__init__.py").write_text("")
        (pkg / "py.typed").write_text("")


if not (HERE / "PKG-INFO").exists():
    if not (PROTO / "canasta").is_dir():
        raise SystemExit(f"setup.py: {PROTO / 'canasta'} not found: build from the repository "
                         "(clients/python) or from an sdist")
    generate()
setup()
