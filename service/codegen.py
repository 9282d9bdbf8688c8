"""Generate the Python code of the ``canasta.v1`` contract (run by ``make setup``).

Copies the few googleapis protos the contract imports out of the installed
``googleapis-common-protos`` wheel into ``gen/proto`` (for buf and protoc; no
registry needed), then runs ``grpc_tools.protoc`` with the mypy-protobuf
plugins into ``gen/python``, and beside the code the contract's descriptors *with*
their comments (:data:`DESCRIPTORS`, protoc's ``--include_source_info``): the generated
modules drop the comments, which the OpenAPI document and gRPC reflection show. Both
folders are generated and git-ignored.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from google.protobuf.descriptor_pb2 import FileDescriptorSet

ROOT = Path(__file__).resolve().parent.parent
PROTO = ROOT / "proto"
GEN = ROOT / "gen"
VENDORED = ("google/api/annotations.proto", "google/api/http.proto")
# the descriptor set with source info, relative to the generated Python root
DESCRIPTORS = Path("canasta") / "v1" / "descriptors.binpb"


def vendor(dest: Path) -> None:
    """Copy the imported googleapis protos from the installed wheel."""
    import google.api

    source = Path(next(iter(google.api.__path__))).parent.parent
    for rel in VENDORED:
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / rel, target)


def generate(out: Path, vendored: Path) -> None:
    """Run protoc (from grpcio-tools) over every ``proto/canasta/**/*.proto``."""
    import grpc_tools
    from grpc_tools import protoc

    builtin = Path(next(iter(grpc_tools.__path__))) / "_proto"
    bindir = Path(sys.executable).parent
    files = sorted(str(p.relative_to(PROTO)) for p in (PROTO / "canasta").rglob("*.proto"))
    if out.exists():
        shutil.rmtree(out)
    (out / DESCRIPTORS).parent.mkdir(parents=True)
    args = [
        "protoc", f"-I{PROTO}", f"-I{vendored}", f"-I{builtin}",
        f"--plugin=protoc-gen-mypy={bindir / 'protoc-gen-mypy'}",
        f"--plugin=protoc-gen-mypy_grpc={bindir / 'protoc-gen-mypy_grpc'}",
        f"--python_out={out}", f"--grpc_python_out={out}",
        f"--mypy_out=quiet:{out}", f"--mypy_grpc_out=quiet:{out}",
        "--include_source_info", f"--descriptor_set_out={out / DESCRIPTORS}", *files,
    ]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")
    for pkg in {p.parent for p in out.rglob("*_pb2.py")}:
        while pkg != out:
            (pkg / "__init__.py").touch()
            pkg = pkg.parent
    (out / "py.typed").touch()


def descriptor_set() -> FileDescriptorSet:
    """The contract's descriptors with their comments, as :func:`generate` wrote them
    into the generated Python root (``gen/python``)."""
    from google.protobuf.descriptor_pb2 import FileDescriptorSet

    from service.api.pb import GEN_ROOT

    path = GEN_ROOT / DESCRIPTORS
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: run `make setup`")
    return FileDescriptorSet.FromString(path.read_bytes())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=GEN)
    args = parser.parse_args(argv)
    vendored = args.out / "proto"
    vendor(vendored)
    generate(args.out / "python", vendored)
    sys.stderr.write(f"generated {args.out / 'python'}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
