"""Generate the four SDKs' code from ``proto/`` with pinned tools (``make sdks``).

    python3 clients/sdkgen.py            # regenerate into clients/ (and stamp clients/VERSION)
    python3 clients/sdkgen.py --check    # regenerate into a temporary folder and diff (and check
                                         # that proto/buf-image.binpb is the contract in proto/)

Every tool is pinned below and installed into a cache folder (``CANASTA_SDK_CACHE``,
default ``.cache/sdk``; git-ignored) from the package registries only:

* Python: ``grpcio-tools`` (its bundled protoc) + ``mypy-protobuf``, in a venv of their own;
* TypeScript: ``protoc-gen-es`` and ``buf`` from ``clients/typescript``'s npm lockfile;
* Go: ``protoc-gen-go`` and ``protoc-gen-go-grpc`` built from the tools module ``go/tools``
  (versions and checksums in its go.mod and go.sum), from the Go module proxy;
* Java: ``protoc`` and ``protoc-gen-grpc-java`` executables from Maven Central.

The input is ``proto/canasta`` plus the googleapis protos it needs (``google/api``
for the HTTP annotations, ``google/rpc`` for the error details), copied from the
pinned ``googleapis-common-protos`` wheel, so no schema registry is involved.
The version in ``clients/VERSION`` is the one place the SDK version lives:
generation stamps it into each package's manifest and version constant.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

CLIENTS = Path(__file__).resolve().parent
ROOT = CLIENTS.parent
PROTO = ROOT / "proto"
CACHE = Path(os.environ.get("CANASTA_SDK_CACHE", ROOT / ".cache" / "sdk")).resolve()
BIN = CACHE / "bin"

# ---- pinned tools -------------------------------------------------------------------------
PY_TOOLS = (
    "grpcio-tools==1.85.1",
    "protobuf==7.36.2",
    "mypy-protobuf==5.1.0",
    "googleapis-common-protos==1.76.0",
)
# Go: protoc-gen-go v1.36.12 and protoc-gen-go-grpc v1.6.2, pinned with checksums by the
# tools module clients/go/tools (go.mod `tool` lines + go.sum)
GO_TOOLS = CLIENTS / "go" / "tools"
GO_PLUGINS = ("google.golang.org/protobuf/cmd/protoc-gen-go",
              "google.golang.org/grpc/cmd/protoc-gen-go-grpc")
PROTOC_JAVA = "com.google.protobuf:protoc:4.36.2:exe:linux-x86_64"
GRPC_JAVA = "io.grpc:protoc-gen-grpc-java:1.83.1:exe:linux-x86_64"
MVN_DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.9.0"
# (buf 1.75.0 and protoc-gen-es 2.17.0 are pinned by clients/typescript/package-lock.json)

GO_MODULE = "github.com/canasta-rules/canasta/clients/go"
JAVA_PACKAGE_PREFIX = "io.github.canastarules"
GOOGLE_PROTOS = (
    "google/api/annotations.proto",
    "google/api/http.proto",
    "google/rpc/status.proto",
    "google/rpc/error_details.proto",
)

# What each SDK has generated (relative to its folder): compared by --check.
GENERATED = {
    "python": ["src/canasta", "src/canasta_client/_version.py"],
    "typescript": ["src/gen", "src/version.ts"],
    "go": ["gen", "version.go"],
    "java": ["src/main/java/io/github/canastarules/canasta",
             "src/main/java/io/github/canastarules/client/Version.java"],
}
# Manifests that carry the version (checked, stamped in place by a plain run).
MANIFESTS = {
    "python/pyproject.toml": r'(?m)^(version = ")([^"]+)(")',
    "typescript/package.json": r'(?s)^(\{\s*"name": "[^"]+",\s*"version": ")([^"]+)(")',
    "typescript/package-lock.json": (
        r'(?s)^(\{\s*"name": "[^"]+",\s*"version": ")([^"]+)(".*?"packages": \{\s*"": \{\s*'
        r'"name": "[^"]+",\s*"version": ")([^"]+)(")'),
    "java/pom.xml": (r"(?s)(<artifactId>canasta-client</artifactId>\s*(?:<!--.*?-->\s*)?<version>)"
                     r"([^<]+)(</version>)"),
}


def log(msg: str) -> None:
    sys.stderr.write(f"sdkgen: {msg}\n")


def run(cmd: list[str], **kw: object) -> None:
    subprocess.run(cmd, check=True, **kw)  # type: ignore[call-overload]


# ---- tools --------------------------------------------------------------------------------

def py_tools() -> Path:
    """The codegen venv's python (made once per pin set)."""
    venv = CACHE / "pytools"
    stamp = venv / ".pins"
    python = venv / "bin" / "python"
    if not (stamp.exists() and stamp.read_text() == "\n".join(PY_TOOLS)):
        log(f"installing {', '.join(PY_TOOLS)}")
        if not python.exists():
            run([sys.executable, "-m", "venv", str(venv)])
        run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", *PY_TOOLS])
        stamp.write_text("\n".join(PY_TOOLS))
    return python


def node_tools() -> Path:
    """clients/typescript/node_modules/.bin (npm ci from the lockfile when missing)."""
    ts = CLIENTS / "typescript"
    bindir = ts / "node_modules" / ".bin"
    lock = (ts / "package-lock.json").read_text()
    marker = ts / "node_modules" / ".canasta-lockfile"
    if not (marker.exists() and marker.read_text() == lock):
        log("npm ci in clients/typescript")
        run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error",
             "--cache", str(CACHE / "npm")], cwd=ts)
        marker.write_text(lock)
    return bindir


def go_env() -> dict[str, str]:
    return {**os.environ, "GOMODCACHE": str(CACHE / "go" / "mod"),
            "GOCACHE": str(CACHE / "go" / "build"), "GOTOOLCHAIN": "local",
            "GOFLAGS": "-modcacherw -buildvcs=false"}


def go_tools() -> None:
    """Build the Go plugins at the versions clients/go/tools/go.sum pins."""
    pins = (GO_TOOLS / "go.mod").read_text() + (GO_TOOLS / "go.sum").read_text()
    marker = BIN / ".go-tools.pins"
    built = all((BIN / pkg.rsplit("/", 1)[1]).exists() for pkg in GO_PLUGINS)
    if built and marker.exists() and marker.read_text() == pins:
        return
    log("building protoc-gen-go and protoc-gen-go-grpc (clients/go/tools)")
    run(["go", "build", "-o", str(BIN) + os.sep, *GO_PLUGINS], cwd=GO_TOOLS, env=go_env())
    marker.write_text(pins)


def maven_exe(coords: str, name: str) -> Path:
    """An executable artifact from Maven Central, copied to BIN as ``name``."""
    target = BIN / name
    marker = BIN / f".{name}.version"
    if target.exists() and marker.exists() and marker.read_text() == coords:
        return target
    log(f"fetching {coords}")
    with tempfile.TemporaryDirectory() as tmp:
        got = subprocess.run(
            ["mvn", "-q", "-B", "-ntp", f"-Dmaven.repo.local={CACHE / 'm2'}",
             f"{MVN_DEPENDENCY_PLUGIN}:copy", f"-Dartifact={coords}", f"-DoutputDirectory={tmp}",
             "-Dmdep.stripVersion=true"], cwd=tmp, capture_output=True, text=True)
        if got.returncode != 0:
            sys.stderr.write(got.stdout + got.stderr)
            raise SystemExit(f"sdkgen: could not fetch {coords}")
        (exe,) = Path(tmp).iterdir()
        shutil.copyfile(exe, target)
    target.chmod(0o755)
    marker.write_text(coords)
    return target


def tools() -> tuple[Path, Path, Path, Path]:
    BIN.mkdir(parents=True, exist_ok=True)
    python = py_tools()
    nodebin = node_tools()
    go_tools()
    protoc = maven_exe(PROTOC_JAVA, "protoc")
    grpc_java = maven_exe(GRPC_JAVA, "protoc-gen-grpc-java")
    return python, nodebin, protoc, grpc_java


# ---- generation ---------------------------------------------------------------------------

def proto_input(python: Path, dest: Path) -> None:
    """proto/canasta plus the googleapis protos from the pinned wheel, in one folder."""
    shutil.copytree(PROTO / "canasta", dest / "canasta")
    site = subprocess.run(
        [str(python), "-c", "import google.rpc, pathlib; "
         "print(pathlib.Path(list(google.rpc.__path__)[0]).parent.parent)"],
        check=True, capture_output=True, text=True).stdout.strip()
    for rel in GOOGLE_PROTOS:
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(Path(site) / rel, dest / rel)


def canasta_files(inp: Path) -> list[str]:
    return sorted(str(p.relative_to(inp)) for p in (inp / "canasta").rglob("*.proto"))


def gen_python(python: Path, inp: Path, out: Path) -> None:
    dest = out / "src"
    dest.mkdir(parents=True, exist_ok=True)
    bindir = python.parent
    run([str(python), "-m", "grpc_tools.protoc", f"-I{inp}",
         f"--plugin=protoc-gen-mypy={bindir / 'protoc-gen-mypy'}",
         f"--plugin=protoc-gen-mypy_grpc={bindir / 'protoc-gen-mypy_grpc'}",
         f"--python_out={dest}", f"--grpc_python_out={dest}",
         f"--mypy_out=quiet:{dest}", f"--mypy_grpc_out=quiet:{dest}", *canasta_files(inp)])
    # canasta/ stays a namespace package; canasta/v1 is a regular, typed one (PEP 561)
    for pkg in {p.parent for p in (dest / "canasta").rglob("*_pb2.py")}:
        (pkg / "__init__.py").write_text("")
        (pkg / "py.typed").write_text("")


def buf_generate(nodebin: Path, inp: Path, template: Mapping[str, Any], paths: list[str]) -> None:
    env = {**os.environ, "PATH": f"{nodebin}{os.pathsep}{BIN}{os.pathsep}{os.environ['PATH']}"}
    args = [str(nodebin / "buf"), "generate", str(inp), "--template", json.dumps(template)]
    for p in paths:
        args += ["--path", str(inp / p)]
    run(args, env=env, cwd=inp)


def gen_typescript(nodebin: Path, inp: Path, out: Path) -> None:
    template = {"version": "v2", "plugins": [{
        "local": str(nodebin / "protoc-gen-es"), "out": str(out / "src" / "gen"),
        "include_imports": True, "opt": ["target=ts", "import_extension=js"]}]}
    buf_generate(nodebin, inp, template,
                 ["canasta", "google/rpc/status.proto", "google/rpc/error_details.proto"])


def gen_go(nodebin: Path, inp: Path, out: Path) -> None:
    maps = [f"M{f}={GO_MODULE}/gen/{Path(f).parent};{Path(f).parent.parent.name}"
            f"{Path(f).parent.name}" for f in canasta_files(inp)]
    opt = ["paths=source_relative", *maps]
    template = {"version": "v2", "plugins": [
        {"local": str(BIN / "protoc-gen-go"), "out": str(out / "gen"), "opt": opt},
        {"local": str(BIN / "protoc-gen-go-grpc"), "out": str(out / "gen"), "opt": opt},
    ]}
    buf_generate(nodebin, inp, template, ["canasta"])


def gen_java(nodebin: Path, inp: Path, out: Path, protoc: Path, grpc_java: Path) -> None:
    java_out = str(out / "src" / "main" / "java")
    template = {
        "version": "v2",
        "managed": {
            "enabled": True,
            "disable": [{"path": "google"}],
            "override": [
                {"file_option": "java_package_prefix", "value": JAVA_PACKAGE_PREFIX},
                {"file_option": "java_multiple_files", "value": True},
            ],
        },
        "plugins": [
            {"protoc_builtin": "java", "protoc_path": str(protoc), "out": java_out},
            {"local": str(grpc_java), "out": java_out},
        ],
    }
    buf_generate(nodebin, inp, template, ["canasta"])


def version() -> str:
    text = (CLIENTS / "VERSION").read_text().strip()
    if not re.fullmatch(r"\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?", text):
        raise SystemExit(f"clients/VERSION: not a semantic version: {text!r}")
    return text


def gen_versions(out: Path, ver: str) -> None:
    note = "generated by clients/sdkgen.py from clients/VERSION; do not edit"
    files = {
        "python/src/canasta_client/_version.py": f'"""The SDK version ({note})."""\n\n'
                                                 f'__version__ = "{ver}"\n',
        "typescript/src/version.ts": f"// {note}\n/** The SDK version. */\n"
                                     f'export const VERSION = "{ver}";\n',
        "go/version.go": f"// Code {note}.\n\npackage canasta\n\n"
                         f'// Version is the SDK version.\nconst Version = "{ver}"\n',
        "java/src/main/java/io/github/canastarules/client/Version.java":
            f"// {note}\npackage io.github.canastarules.client;\n\n"
            f"/** The SDK version. */\npublic final class Version {{\n"
            f'  /** The SDK version, such as {{@code "{ver}"}}. */\n'
            f'  public static final String VERSION = "{ver}";\n\n'
            f"  private Version() {{}}\n}}\n",
    }
    for rel, text in files.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text(text)


def generate(out: Path) -> None:
    """Generate every SDK's code under ``out`` (``out/python``, ``out/typescript``, ...)."""
    python, nodebin, protoc, grpc_java = tools()
    with tempfile.TemporaryDirectory() as tmp:
        inp = Path(tmp) / "proto"
        proto_input(python, inp)
        gen_python(python, inp, out / "python")
        gen_typescript(nodebin, inp, out / "typescript")
        gen_go(nodebin, inp, out / "go")
        gen_java(nodebin, inp, out / "java", protoc, grpc_java)
    gen_versions(out, version())


def clear_generated() -> None:
    for sdk, rels in GENERATED.items():
        for rel in rels:
            path = CLIENTS / sdk / rel
            if path.is_dir():
                shutil.rmtree(path)
            elif path.exists():
                path.unlink()


def stamp_manifests(ver: str, write: bool) -> list[str]:
    """Put ``ver`` in each manifest (write) or list those that differ."""
    stale = []
    for rel, pattern in MANIFESTS.items():
        path = CLIENTS / rel
        text = path.read_text()
        match = re.search(pattern, text)
        if not match:
            raise SystemExit(f"{rel}: no version field found")
        groups = match.groups()
        found = groups[1::2]
        if all(v == ver for v in found):
            continue
        stale.append(f"{rel}: version {found[0]} is not clients/VERSION {ver}")
        if write:
            parts = list(groups)
            for i in range(1, len(parts), 2):
                parts[i] = ver
            path.write_text(text[:match.start()] + "".join(parts) + text[match.end():])
    return stale


def files_under(base: Path, rel: str) -> dict[str, bytes]:
    root = base / rel
    if root.is_file():
        return {rel: root.read_bytes()}
    if not root.exists():
        return {}
    return {str(p.relative_to(base)): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}


def diff(sdk: str, fresh: Path) -> list[str]:
    """Differences between the committed generated code of ``sdk`` and a fresh copy."""
    problems: list[str] = []
    for rel in GENERATED[sdk]:
        have = files_under(CLIENTS / sdk, rel)
        want = files_under(fresh / sdk, rel)
        for name in sorted(set(have) | set(want)):
            if name not in want:
                problems.append(f"clients/{sdk}/{name}: not generated any more")
            elif name not in have:
                problems.append(f"clients/{sdk}/{name}: missing")
            elif have[name] != want[name]:
                lines = difflib.unified_diff(
                    have[name].decode(errors="replace").splitlines(),
                    want[name].decode(errors="replace").splitlines(),
                    f"committed/{name}", f"generated/{name}", lineterm="", n=1)
                problems.append(f"clients/{sdk}/{name}: differs\n" + "\n".join(list(lines)[:40]))
    return problems


DIGEST = """
import hashlib, sys
from google.protobuf import descriptor_pb2
for path in sys.argv[1:]:
    image = descriptor_pb2.FileDescriptorSet.FromString(open(path, "rb").read())
    digest = hashlib.sha256()
    for f in sorted(image.file, key=lambda f: f.name):
        if f.name.startswith("canasta/"):
            f.DiscardUnknownFields()  # buf's per-file module info
            digest.update(f.SerializeToString(deterministic=True))
    print(digest.hexdigest())
"""


def contract_problems(python: Path, nodebin: Path) -> list[str]:
    """The committed baseline image (what `buf breaking` compares against) must be proto/."""
    baseline = PROTO / "buf-image.binpb"
    if not baseline.exists():
        return ["proto/buf-image.binpb: missing (make proto-baseline)"]
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "image.binpb"
        run([str(nodebin / "buf"), "build", "--path", "proto/canasta", "-o", str(fresh)], cwd=ROOT)
        digests = subprocess.run([str(python), "-c", DIGEST, str(baseline), str(fresh)],
                                 check=True, capture_output=True, text=True).stdout.split()
    if digests[0] != digests[1]:
        return ["proto/buf-image.binpb: not the contract in proto/ - once `buf breaking` "
                "(make lint) passes, run `make proto-baseline` and commit the image"]
    return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true",
                        help="regenerate into a temporary folder and fail on any difference")
    parser.add_argument("--tools", action="store_true", help="only install the pinned tools")
    args = parser.parse_args(argv)
    if args.tools:
        tools()
        return 0
    ver = version()
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            generate(Path(tmp))
            problems = stamp_manifests(ver, write=False)
            problems += contract_problems(py_tools(), node_tools())
            for sdk in GENERATED:
                problems += diff(sdk, Path(tmp))
        for p in problems:
            sys.stderr.write(p + "\n")
        if problems:
            sys.stderr.write("generated SDK code is out of date: run `make sdks`\n")
            return 1
        log("generated code of all four SDKs matches proto/ and clients/VERSION; "
            "proto/buf-image.binpb is the contract in proto/")
        return 0
    clear_generated()
    generate(CLIENTS)
    for line in stamp_manifests(ver, write=True):
        log("stamped " + line)
    log(f"generated clients/{{python,typescript,go,java}} at version {ver}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
