"""``make sdk-test``: each SDK installed as its README says, then tested, against a live server.

    python clients/sdktest.py [--sdk python,typescript,go,java] [--no-sync]

1. ``sync``: the committed generated Go code, the versions and the contract image are what
   ``proto/`` and ``clients/VERSION`` make (``sdkgen.py --check``; needs ``BUF``, which
   ``make sdk-test`` passes);
2. ``parity``: every RPC of ``canasta.v1.CanastaEngine``, read from the service's descriptors
   (``gen/python``, made by ``make setup``), has its method in each SDK's client; the method
   calls that RPC, takes every field of its request, and a call's own token where the request
   carries a snapshot;
3. starts the service (``python -m service``) on free ports with a throw-away seal key;
4. per SDK, ``<sdk>-install``: the README's ``## Install`` commands, verbatim, in a scratch
   project (a temporary folder; ``CANASTA`` is this checkout), then every program of its
   ``## Example`` sections, run as written in that project against the server (each reads its
   address from ``CANASTA_GRPC_TARGET`` or ``CANASTA_REST_URL``), then each snippet of its
   other sections added to the end of the first example (:func:`spliced`), then what a release
   publishes (the built packages' contents); and ``<sdk>``: the SDK's own test suite against
   the server (``CANASTA_GRPC_TARGET``, ``CANASTA_REST_URL``);
5. stops the server and prints one line per step, then ``sdk-test: N passed, M failed``.

Downloads are cached in ``CANASTA_SDK_CACHE`` (default ``.cache/sdk``): pip's, npm's, Go's
module and build caches, the local Maven repository. Run it with the service's Python.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import secrets
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

CLIENTS = Path(__file__).resolve().parent
ROOT = CLIENTS.parent
sys.path.insert(0, str(CLIENTS))

import sdkgen  # noqa: E402

CACHE = sdkgen.CACHE
SDKS = ("python", "typescript", "go", "java")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
# The address each README names (``make run``'s) and the variable a program reads in its place:
# the scratch project's environment points them at the server under test, as a studio points
# them at its own.
EXAMPLE_SERVERS = {"127.0.0.1:50051": "CANASTA_GRPC_TARGET", "http://127.0.0.1:8080": "CANASTA_REST_URL"}
SCORE_LINE = re.compile(r"^team (\d+): -?\d+ points$", re.M)


def say(msg: str) -> None:
    sys.stdout.write(f"sdk-test: {msg}\n")
    sys.stdout.flush()


class Failed(Exception):
    """A step failed; ``counts`` are the checks it passed and failed."""

    def __init__(self, what: str, counts: tuple[int, int] = (0, 1)) -> None:
        super().__init__(what)
        self.counts = counts


def run(cmd: list[str], cwd: Path, env: dict[str, str], check: bool = True) -> str:
    """Run ``cmd``, echoing its output; returns the output (raises :class:`Failed` if ``check``)."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, errors="replace")
    assert proc.stdout is not None
    lines = []
    for line in proc.stdout:
        line = ANSI.sub("", line)  # Maven's colour resets, even in batch mode
        if not line.strip():
            continue
        sys.stdout.write(line)
        lines.append(line)
    sys.stdout.flush()
    out = "".join(lines)
    if proc.wait() != 0:
        if check:
            raise Failed(f"{' '.join(cmd[:4])} ... exited with {proc.returncode}")
        out += f"\n[exit {proc.returncode}]\n"
    return out


class Server:
    """The service in a child process on free ports, with a throw-away seal key."""

    def __init__(self) -> None:
        self.tmp = tempfile.TemporaryDirectory(prefix="canasta-sdk-test-")
        ready = Path(self.tmp.name) / "ready.json"
        env = {**os.environ,
               "CANASTA_BIND": "127.0.0.1", "CANASTA_GRPC_PORT": "0", "CANASTA_HTTP_PORT": "0",
               "CANASTA_SEAL_KEYS": f"sdk-test:{secrets.token_hex(32)}",
               "CANASTA_ACCESS_LOG": "false", "CANASTA_LOG_LEVEL": "WARNING"}
        env.pop("CANASTA_DEV_KEY_FILE", None)
        self.proc = subprocess.Popen([sys.executable, "-m", "service", "--ready-file", str(ready)],
                                     cwd=ROOT, env=env)
        deadline = time.monotonic() + 60
        while not ready.exists():
            if self.proc.poll() is not None:
                raise SystemExit(f"sdk-test: the service exited with {self.proc.returncode}")
            if time.monotonic() > deadline:
                self.stop()
                raise SystemExit("sdk-test: the service did not get ready in 60 s")
            time.sleep(0.05)
        ports = json.loads(ready.read_text())
        self.grpc_target = f"127.0.0.1:{ports['grpc_port']}"
        self.rest_url = f"http://127.0.0.1:{ports['http_port']}"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.tmp.cleanup()


# ---- parity: every RPC in every SDK, from the service's descriptors ------------------------

def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def lower_camel(name: str) -> str:
    return name[0].lower() + name[1:]


def camel_field(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.title() for p in rest)


@dataclass
class Method:
    """One method (overload) of a client class: parameter names, signature text, body."""

    params: list[str]
    signature: str
    body: str


def split_params(text: str) -> list[str]:
    """Top-level comma-separated parameters of a signature."""
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "<({[":
            depth += 1
        elif ch in ">)}]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    return [p.strip() for p in [*parts, current] if p.strip()]


def methods_by_header(source: str, header: str, param_name: Callable[[str], str]) -> dict[
        str, list[Method]]:
    """Methods found by a header regex (name, parameters); a body runs to the next header."""
    found: dict[str, list[Method]] = {}
    matches = list(re.finditer(header, source, re.M | re.S))
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(source)
        params = [param_name(p) for p in split_params(m.group(2))]
        found.setdefault(m.group(1), []).append(Method(params, m.group(0), source[m.end():end]))
    return found


def python_methods(source: str, name: str = "CanastaClient") -> dict[str, list[Method]]:
    """The methods (coroutines too) of class ``name``, from its syntax tree."""
    tree = ast.parse(source)
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
    found: dict[str, list[Method]] = {}
    for fn in cls.body:
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            params = [a.arg for a in [*fn.args.args[1:], *fn.args.kwonlyargs]]
            found[fn.name] = [Method(params, ast.unparse(fn.args), ast.unparse(fn))]
    return found


@dataclass
class Sdk:
    """How one SDK's client spells an RPC, calls it and takes its request."""

    name: str
    source: str
    methods: Callable[[str], dict[str, list[Method]]]
    method_name: Callable[[str], str]
    stub_call: Callable[[str], str]
    field_name: Callable[[str], str]
    takes_request: Callable[[str, Method], bool]
    takes_token: Callable[[Method], bool]
    with_token: str
    # the option objects a method may take fields in: {type name: field names}
    extras: Callable[[str], dict[str, list[str]]] = lambda source: {}


def ts_extras(source: str) -> dict[str, list[str]]:
    """The fields of each ``...Extras`` interface (a method's optional request fields)."""
    return {m.group(1): re.findall(r"^\s+(\w+)\??:", m.group(2), re.M)
            for m in re.finditer(r"export interface (\w+Extras) \{(.*?)\n\}", source, re.S)}


VIEW = "GetView"  # the one name that is not the RPC's: a client's view of a snapshot
PARITY: list[Sdk] = [
    Sdk("python", "python/src/canasta_client/client.py", python_methods,
        lambda rpc: "view" if rpc == VIEW else snake(rpc), lambda rpc: f"self.stub.{rpc}",
        lambda f: f, lambda req, m: False, lambda m: "token" in m.params, "with_token"),
    Sdk("python-aio", "python/src/canasta_client/aio.py",
        lambda s: python_methods(s, "AsyncCanastaClient"),
        lambda rpc: "view" if rpc == VIEW else snake(rpc), lambda rpc: f"self.stub.{rpc}",
        lambda f: f, lambda req, m: False, lambda m: "token" in m.params, "with_token"),
    Sdk("typescript", "typescript/src/client.ts",
        lambda s: methods_by_header(s, r"^  (?!private |constructor)(\w+)\((.*?)\)(?=: )",
                                    lambda p: p.split(":")[0].rstrip("?")),
        lambda rpc: "view" if rpc == VIEW else lower_camel(rpc),
        lambda rpc: f"CanastaEngine.method.{lower_camel(rpc)}", camel_field,
        lambda req, m: f"{req.removesuffix('Request')}Init" in m.signature,
        lambda m: "options?: CallOptions" in m.signature, "withToken", ts_extras),
    Sdk("go", "go/client.go",
        lambda s: methods_by_header(s, r"^func \(c \*Client\) (\w+)\((.*?)\) [(*]",
                                    lambda p: p.split()[0]),
        lambda rpc: "View" if rpc == VIEW else rpc, lambda rpc: f"c.rpc.{rpc}", camel_field,
        lambda req, m: f"*pb.{req}" in m.signature, lambda m: "...CallOption" in m.signature,
        "WithToken"),
    Sdk("java", "java/src/main/java/io/github/canastarules/client/CanastaClient.java",
        lambda s: methods_by_header(s, r"^  public (?!static )[\w<>]+ (\w+)\((.*?)\) \{",
                                    lambda p: p.split()[-1]),
        lambda rpc: "view" if rpc == VIEW else lower_camel(rpc),
        lambda rpc: f"s.{lower_camel(rpc)}(", camel_field,
        lambda req, m: f"{req} request" in m.signature, lambda m: "String token" in m.signature,
        "withToken"),
]


def service_methods() -> list[Any]:
    """The RPCs of canasta.v1.CanastaEngine, from the service's generated descriptors."""
    gen = ROOT / "gen" / "python"
    if not (gen / "canasta" / "v1" / "engine_service_pb2.py").exists():
        raise Failed(f"{gen}: no generated code (make setup)")
    sys.path.insert(0, str(gen))
    from canasta.v1 import engine_service_pb2

    return list(engine_service_pb2.DESCRIPTOR.services_by_name["CanastaEngine"].methods)


def parity_problems(sdk: Sdk, rpc: Any) -> list[str]:
    """What ``sdk``'s client lacks for ``rpc`` (a method, its call, a field, a call's token)."""
    source = (CLIENTS / sdk.source).read_text()
    extras = sdk.extras(source)
    name = sdk.method_name(rpc.name)
    overloads = sdk.methods(source).get(name)
    where = f"{sdk.name}: {name} ({rpc.name})"
    if not overloads:
        return [f"{where}: no such method in clients/{sdk.source}"]
    problems = []
    if not any(sdk.stub_call(rpc.name) in m.body for m in overloads):
        problems.append(f"{where}: does not call {sdk.stub_call(rpc.name)}")
    fields = [sdk.field_name(f.name) for f in rpc.input_type.fields]

    def takes(m: Method) -> set[str]:
        names = set(m.params)
        for option_type, option_fields in extras.items():
            if option_type in m.signature:
                names |= set(option_fields)
        return names

    if not any(sdk.takes_request(rpc.input_type.name, m) or set(fields) <= takes(m)
               for m in overloads):
        missing = sorted(set(fields) - set().union(*(takes(m) for m in overloads)))
        problems.append(f"{where}: takes no {', '.join(missing)} of {rpc.input_type.name}")
    if "snapshot" in rpc.input_type.fields_by_name and not any(sdk.takes_token(m)
                                                                for m in overloads):
        problems.append(f"{where}: no per-call token")
    return problems


def parity() -> tuple[int, int]:
    """Every RPC in every SDK; prints the table of method names."""
    rpcs = service_methods()
    problems: list[str] = []
    say(f"{'RPC':<16}" + "".join(f"{sdk.name:<16}" for sdk in PARITY))
    for rpc in rpcs:
        say(f"{rpc.name:<16}" + "".join(f"{sdk.method_name(rpc.name):<16}" for sdk in PARITY))
        for sdk in PARITY:
            problems += parity_problems(sdk, rpc)
    for sdk in PARITY:
        if sdk.with_token not in sdk.methods((CLIENTS / sdk.source).read_text()):
            problems.append(f"{sdk.name}: no {sdk.with_token} (a client's own token)")
    for p in problems:
        say(f"parity: {p}")
    failed = len({p.split(" (")[0] for p in problems})
    if failed:
        raise Failed(f"{len(problems)} gaps", (len(rpcs) * len(PARITY) - failed, failed))
    return len(rpcs) * len(PARITY), 0


# ---- installs as the READMEs say, in scratch projects -------------------------------------

FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)


def readme_blocks(sdk: str, section: str, lang: str, other: bool = False) -> list[str]:
    """The ``lang`` code blocks of the README's sections whose title starts with ``section``
    (with ``other``: of every other section, none of them an error)."""
    text = (CLIENTS / sdk / "README.md").read_text()
    blocks = []
    for part in re.split(r"^## ", text, flags=re.M)[1:]:
        if part.startswith(section) != other:
            blocks += [m.group(2) for m in FENCE.finditer(part) if m.group(1) == lang]
    if not blocks and not other:
        raise Failed(f"clients/{sdk}/README.md: no {lang} block under '## {section}'")
    return blocks


def readme_install(sdk: str, scratch: Path, env: dict[str, str]) -> None:
    """The README's install commands, verbatim, in the scratch project."""
    for block in readme_blocks(sdk, "Install", "sh"):
        say(f"{sdk}: $ {block.strip()}")
        run(["bash", "-euo", "pipefail", "-c", block], scratch, env)


def pointable(sdk: str, source: str) -> str:
    """A README's code as written, refused when it names ``make run``'s address without the
    variable that moves it: copied into a studio's project, it could reach no other server
    (before, this test rewrote the address in the text, and the READMEs said no other way)."""
    for address, variable in EXAMPLE_SERVERS.items():
        if address in source and variable not in source:
            raise Failed(f"clients/{sdk}/README.md: this code connects to {address} alone; "
                         f"read the address from {variable}:\n{source}")
    return source


def examples(sdk: str, lang: str) -> Iterator[str]:
    """The README's example programs, each able to reach the server under test."""
    for block in readme_blocks(sdk, "Example", lang):
        yield pointable(sdk, block)


# The README's other snippets (request ids, errors, retries) continue its first example where
# it has played the hand out, using its ``client``, ``host`` and ``snapshot``: per SDK, the
# lines that close the body holding them (Go's main, Java's try block) and that body's
# indent. A snippet's import lines go before the example's first.
SPLICE = {"python": (0, "    "), "typescript": (0, ""), "go": (1, "\t"), "java": (3, "      ")}
IMPORT = re.compile(r"^(import|from)\s")
PRINTS = re.compile(r"print|console\.log", re.I)


def spliced(sdk: str, example: str, snippet: str) -> str:
    """The program a newcomer gets by adding ``snippet`` to the end of ``example``."""
    closing, indent = SPLICE[sdk]
    lines = example.rstrip("\n").split("\n")
    imports = [line for line in snippet.splitlines() if IMPORT.match(line)]
    body = [f"{indent}{line}" if line.strip() else "" for line in snippet.splitlines()
            if not IMPORT.match(line)]
    first = next(i for i, line in enumerate(lines) if IMPORT.match(line))
    end = len(lines) - closing
    return "\n".join(lines[:first] + imports + lines[first:end] + body + lines[end:]) + "\n"


def expect_scores(out: str) -> None:
    """A README example plays a hand out and prints both teams' scores."""
    teams = [int(t) for t in SCORE_LINE.findall(out)]
    if teams != [0, 1]:
        raise Failed(f"the example printed teams {teams}, not [0, 1]")


def expect_members(what: str, names: set[str], wanted: list[str], unwanted: str = "") -> None:
    missing = [w for w in wanted if not any(re.fullmatch(w, n) for n in names)]
    extra = sorted(n for n in names if unwanted and re.search(unwanted, n))
    if missing or extra:
        raise Failed(f"{what}: missing {missing}, unexpected {extra[:5]}")


@dataclass
class Scratch:
    """A scratch project and the environment its commands run in."""

    path: Path
    env: dict[str, str]
    checks: int = 0

    def passed(self, what: str) -> None:
        self.checks += 1
        say(f"ok: {what}")

    def example(self, sdk: str, langs: tuple[str, ...], command: Callable[[Path], list[str]],
                name: Callable[[str, str], str]) -> None:
        """Each example program in ``langs[0]``, then each snippet in ``langs`` added to the
        first: every one runs, plays the hand out, and a snippet that prints prints."""
        programs = list(examples(sdk, langs[0]))
        for i, source in enumerate(programs):
            out = self.program(command, self.path / name(f"example{i}", source), source)
            if i == 0:
                shown = len(out.splitlines())
            self.passed(f"{sdk} README example {i + 1}")
        snippets = [b for lang in langs for b in readme_blocks(sdk, "Example", lang, other=True)]
        for i, snippet in enumerate(snippets):
            source = spliced(sdk, programs[0], pointable(sdk, snippet))
            out = self.program(command, self.path / name(f"snippet{i}", source), source)
            if PRINTS.search(snippet) and len(out.splitlines()) <= shown:
                raise Failed(f"clients/{sdk}/README.md: this snippet printed nothing:\n{snippet}")
            self.passed(f"{sdk} README snippet {i + 1}, after example 1")

    def program(self, command: Callable[[Path], list[str]], file: Path, source: str) -> str:
        """Run ``source`` saved as ``file``; its output, which has both teams' scores."""
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(source)
        out = run(command(file), self.path, self.env)
        expect_scores(out)
        return out


def install_python(s: Scratch) -> None:
    venv = s.path / ".venv"
    run([sys.executable, "-m", "venv", str(venv)], s.path, s.env)
    s.env["PATH"] = f"{venv / 'bin'}{os.pathsep}{s.env['PATH']}"  # the project's venv, activated
    s.env["VIRTUAL_ENV"] = str(venv)
    readme_install("python", s.path, s.env)
    s.passed("pip install clients/python")
    s.example("python", ("python",), lambda f: ["python", str(f)], lambda stem, _: f"{stem}.py")
    # what PyPI would get: an sdist, and a wheel built from it (no proto/ beside it)
    run(["pip", "install", "-q", "build==1.6.1", "pytest>=8"], s.path, s.env)
    dist = s.path / "dist"
    run(["python", "-m", "build", "-q", "--outdir", str(dist), str(CLIENTS / "python")], s.path,
        s.env)
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")
    with zipfile.ZipFile(wheel) as z:
        expect_members(wheel.name, set(z.namelist()), [
            r"canasta/v1/engine_service_pb2\.py", r"canasta/v1/engine_service_pb2_grpc\.pyi",
            r"canasta/v1/py\.typed", r"canasta_client/client\.py", r"canasta_client/aio\.py",
            r"canasta_client/_calls\.py", r"canasta_client/py\.typed",
            r"canasta_client-[^/]+\.dist-info/licenses/LICENSE"], r"^(tests|build)/")
    with tarfile.open(sdist) as t:
        names = {n.split("/", 1)[1] for n in t.getnames() if "/" in n}
    expect_members(sdist.name, names, [r"PKG-INFO", r"LICENSE", r"setup\.py",
                                       r"src/canasta/v1/game_pb2\.py", r"src/canasta/v1/game_pb2\.pyi"])
    s.passed(f"python -m build: {sdist.name}, {wheel.name} (built from the sdist)")


def install_typescript(s: Scratch) -> None:
    run(["npm", "init", "-y"], s.path, s.env)
    readme_install("typescript", s.path, s.env)
    s.passed("npm install clients/typescript (prepare built dist/)")
    s.example("typescript", ("js", "ts"), lambda f: ["node", str(f)],
              lambda stem, _: f"{stem}.mjs")
    packed = s.path / "packed"
    packed.mkdir()
    run(["npm", "pack", "--silent", "--pack-destination", str(packed)], CLIENTS / "typescript",
        s.env)
    (tarball,) = packed.glob("*.tgz")
    with tarfile.open(tarball) as t:
        names = {n.removeprefix("package/") for n in t.getnames()}
    expect_members(tarball.name, names, [
        r"package\.json", r"README\.md", r"LICENSE", r"dist/src/index\.js", r"dist/src/node\.d\.ts",
        r"dist/src/gen/canasta/v1/engine_service_pb\.js"], r"^(src|test|dist/test|node_modules)/")
    s.passed(f"npm pack: {tarball.name}")


def install_go(s: Scratch) -> None:
    s.env.update(sdkgen.go_env())
    s.env.pop("GOBIN", None)
    run(["go", "mod", "init", "example.com/scratch"], s.path, s.env)
    readme_install("go", s.path, s.env)
    s.passed("go get (replace to clients/go)")
    s.example("go", ("go",), lambda f: ["go", "run", f"./{f.parent.name}"],
              lambda stem, _: f"{stem}/main.go")
    module = run(["go", "list", "-m"], CLIENTS / "go", s.env).strip()
    if module != "github.com/canasta-rules/canasta/clients/go":
        raise Failed(f"clients/go is module {module}: the tags clients/go/vX.Y.Z serve another path")
    if re.search(r"(?m)^replace\b", (CLIENTS / "go" / "go.mod").read_text()):
        raise Failed("clients/go/go.mod has a replace directive, which go get would ignore")
    s.passed(f"module {module}: tags clients/go/vX.Y.Z")


SCRATCH_POM = """<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>example</groupId>
  <artifactId>scratch</artifactId>
  <version>1</version>
  <properties>
    <maven.compiler.release>11</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
{dependency}
  </dependencies>
  <build>
    <plugins>
      <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.14.0</version></plugin>
      <plugin><artifactId>maven-resources-plugin</artifactId><version>3.5.0</version></plugin>
      <plugin>
        <groupId>org.codehaus.mojo</groupId><artifactId>exec-maven-plugin</artifactId>
        <version>3.5.0</version>
      </plugin>
    </plugins>
  </build>
</project>
"""


def install_java(s: Scratch) -> None:
    s.env["MAVEN_OPTS"] = f"-Dmaven.repo.local={CACHE / 'm2'} {s.env.get('MAVEN_OPTS', '')}"
    readme_install("java", s.path, s.env)
    (dependency,) = readme_blocks("java", "Install", "xml")
    (s.path / "pom.xml").write_text(SCRATCH_POM.format(dependency=dependency.rstrip()))
    s.passed("mvn install clients/java, then a dependency")
    mvn = ["mvn", "-q", "-B", "-ntp", "-Dstyle.color=never"]
    s.example("java", ("java",),
              lambda f: [*mvn, "compile", "exec:java", f"-Dexec.mainClass={f.stem}"],
              lambda _, source: "src/main/java/{}.java".format(
                  re.search(r"public class (\w+)", source).group(1)))  # type: ignore[union-attr]
    ver = sdkgen.version()
    jar = CACHE / "m2" / "io" / "github" / "canasta-rules" / "canasta-client" / ver / \
        f"canasta-client-{ver}.jar"
    with zipfile.ZipFile(jar) as z:
        expect_members(jar.name, set(z.namelist()), [
            r"META-INF/LICENSE", r"io/github/canastarules/client/CanastaClient\.class",
            r"io/github/canastarules/canasta/v1/CanastaEngineGrpc\.class",
            r"io/github/canastarules/canasta/v1/DealRequest\.class"], r"\.proto$")
    s.passed(f"{jar.name}: the client, the generated classes, the licence")


INSTALLS: dict[str, Callable[[Scratch], None]] = {
    "python": install_python, "typescript": install_typescript, "go": install_go,
    "java": install_java,
}


# ---- each SDK's own suite --------------------------------------------------------------------

def finish(out: str, found: tuple[int, int]) -> tuple[int, int]:
    """The counts, or :class:`Failed` with them when the runner exited non-zero."""
    if re.search(r"\[exit \d+\]\n$", out):
        raise Failed("the test runner failed", (found[0], max(found[1], 1)))
    return found


def junit_counts(files: list[Path]) -> tuple[int, int]:
    passed = failed = 0
    for f in files:
        root = ET.parse(f).getroot()
        for suite in ([root] if root.tag == "testsuite" else root.iter("testsuite")):
            total = int(suite.get("tests", 0))
            bad = int(suite.get("failures", 0)) + int(suite.get("errors", 0))
            skipped = int(suite.get("skipped", 0))
            passed += total - bad - skipped
            failed += bad
    return passed, failed


def counts(out: str, ok: str, bad: str, count_lines: bool = False) -> tuple[int, int]:
    def grab(pattern: str) -> int:
        found = re.findall(pattern, out, re.M)
        return len(found) if count_lines else sum(int(x) for x in found)

    return grab(ok), grab(bad)


def suite_python(s: Scratch) -> tuple[int, int]:
    """pytest in the scratch venv, on the package the README's install put there."""
    report = CACHE / "reports" / "python.xml"
    report.unlink(missing_ok=True)
    out = run(["python", "-m", "pytest", f"--junitxml={report}"], CLIENTS / "python", s.env,
              check=False)
    return finish(out, junit_counts([report]) if report.exists() else (0, 1))


def suite_typescript(s: Scratch) -> tuple[int, int]:
    out = run(["npm", "test", "--silent"], CLIENTS / "typescript", s.env, check=False)
    return finish(out, counts(out, r"^# pass (\d+)", r"^# fail (\d+)"))


def suite_go(s: Scratch) -> tuple[int, int]:
    go = CLIENTS / "go"
    run(["go", "vet", "./..."], go, s.env)
    out = run(["go", "test", "-count=1", "-v", "./..."], go, s.env, check=False)
    return finish(out, counts(out, r"^--- PASS", r"^--- FAIL", count_lines=True))


def suite_java(s: Scratch) -> tuple[int, int]:
    java = CLIENTS / "java"
    reports = java / "target" / "surefire-reports"
    for old in reports.glob("TEST-*.xml") if reports.exists() else ():
        old.unlink()
    out = run(["mvn", "-q", "-B", "-ntp", "-Dstyle.color=never", "test"], java, s.env,
              check=False)
    files = sorted(reports.glob("TEST-*.xml")) if reports.exists() else []
    return finish(out, junit_counts(files))


SUITES: dict[str, Callable[[Scratch], tuple[int, int]]] = {
    "python": suite_python, "typescript": suite_typescript, "go": suite_go, "java": suite_java,
}


# ---- the run ---------------------------------------------------------------------------------

def step(results: list[tuple[str, bool, int, int, float]], name: str,
         body: Callable[[], tuple[int, int]]) -> bool:
    """Run one step, record its line; True when it passed."""
    t0 = time.monotonic()
    say(f"--- {name}")
    try:
        passed, failed = body()
        ok = failed == 0 and passed > 0
    except Failed as err:
        say(f"{name}: {err}")
        (passed, failed), ok = err.counts, False
    except (OSError, ValueError, subprocess.CalledProcessError) as err:
        say(f"{name}: {err}")
        passed, failed, ok = 0, 1, False
    results.append((name, ok, passed, failed, time.monotonic() - t0))
    return ok


def install(name: str, s: Scratch) -> tuple[int, int]:
    """An SDK's install, examples and package checks in ``s``; counts the checks."""
    try:
        INSTALLS[name](s)
    except Failed as err:
        raise Failed(str(err), (s.checks, 1)) from None
    return s.checks, 0


def scratch_env(server: Server) -> dict[str, str]:
    return {**os.environ, "CANASTA": str(ROOT), "CANASTA_GRPC_TARGET": server.grpc_target,
            "CANASTA_REST_URL": server.rest_url, "npm_config_cache": str(CACHE / "npm"),
            "npm_config_update_notifier": "false", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sdk", default=",".join(SDKS),
                        help="comma-separated SDKs to test (default: all four)")
    parser.add_argument("--no-sync", action="store_true",
                        help="skip the generated-code sync check (which needs BUF)")
    args = parser.parse_args(argv)
    chosen = [s.strip() for s in args.sdk.split(",") if s.strip()]
    unknown = set(chosen) - set(SDKS)
    if unknown:
        parser.error(f"unknown SDK(s): {', '.join(sorted(unknown))}")
    (CACHE / "reports").mkdir(parents=True, exist_ok=True)
    results: list[tuple[str, bool, int, int, float]] = []
    start = time.monotonic()
    if not args.no_sync:
        step(results, "sync", lambda: (1, 0) if sdkgen.main(["--check"]) == 0 else (0, 1))
    step(results, "parity", parity)
    server = Server()
    say(f"service at grpc {server.grpc_target}, rest {server.rest_url}")
    try:
        for name in chosen:
            with tempfile.TemporaryDirectory(prefix=f"canasta-{name}-") as tmp:
                s = Scratch(Path(tmp), scratch_env(server))
                if step(results, f"{name}-install", partial(install, name, s)):
                    step(results, name, partial(SUITES[name], s))
                else:
                    results.append((name, False, 0, 1, 0.0))
    finally:
        server.stop()
    for name, ok, passed, failed, secs in results:
        say(f"{name:<18} {'ok  ' if ok else 'FAIL'} {passed:3d} passed, {failed} failed "
            f"in {secs:5.1f} s")
    bad = sum(1 for r in results if not r[1])
    say(f"total {time.monotonic() - start:.1f} s")
    sys.stdout.write(f"sdk-test: {len(results) - bad} passed, {bad} failed\n")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
