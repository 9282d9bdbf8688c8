"""deploy/Dockerfile and .dockerignore (no Docker engine here: `make lint` runs hadolint, and
this checks what hadolint cannot: the image agrees with the service, k8s/ and pyproject)."""

from __future__ import annotations

import json
import re
import shlex
import tomllib
from pathlib import Path

from google.protobuf.internal import api_implementation

from service.ops.config import Settings
from tests.deploy.kustomize import render

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "deploy" / "Dockerfile"


def _instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text())
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def _stages() -> list[list[tuple[str, str]]]:
    stages: list[list[tuple[str, str]]] = []
    for word, rest in _instructions():
        if word == "FROM":
            stages.append([])
        if stages:
            stages[-1].append((word, rest))
    return stages


def _env(stage: list[tuple[str, str]]) -> dict[str, str]:
    env: dict[str, str] = {}
    for word, rest in stage:
        if word == "ENV":
            env.update(item.split("=", 1) for item in shlex.split(rest))
    return env


def test_multi_stage_and_the_runtime_stage_is_lean() -> None:
    build, runtime = _stages()
    assert build[0][1].endswith(" AS build") and "slim" in build[0][1]
    assert "slim" in runtime[0][1]
    copies = [rest for word, rest in runtime if word == "COPY"]
    assert copies and all(c.startswith("--from=build ") for c in copies), \
        "the runtime stage takes only the built venv, no sources or build tools"
    assert not [rest for word, rest in runtime if word == "RUN" and "pip" in rest]


def test_runtime_settings_match_the_service_and_k8s() -> None:
    runtime = _stages()[-1]
    env = _env(runtime)
    assert env["PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION"] == "upb"
    assert env["PYTHONDONTWRITEBYTECODE"] == "1"  # nothing written: read-only root filesystem
    settings = Settings.from_env({k: v for k, v in env.items() if k.startswith("CANASTA_")})
    assert settings.bind == "0.0.0.0"
    web = Path(env["CANASTA_WEB_DIR"])  # the web table at /play: copied from the build stage
    assert f"--from=build {web} {web}" in [rest for word, rest in runtime if word == "COPY"]
    build_copies = [rest.split() for word, rest in _stages()[0] if word == "COPY"]
    served = {f"clients/web/{p.name}" for p in (ROOT / "clients" / "web").iterdir()
              if p.suffix in (".html", ".css", ".js")}
    assert [srcs for *srcs, dst in build_copies if dst.rstrip("/") == str(web)] == [sorted(served)]
    expose = {int(p) for word, rest in runtime if word == "EXPOSE" for p in rest.split()}
    assert expose == {settings.grpc_port, settings.http_port} == {50051, 8080}
    # the image keeps /metrics on the HTTP port, as before; k8s/ serves it apart
    assert settings.metrics_port is None

    resources = render(ROOT / "k8s" / "base")
    deployment = next(r for r in resources if r["kind"] == "Deployment")
    pod = deployment["spec"]["template"]["spec"]
    ports = {p["containerPort"] for p in pod["containers"][0]["ports"]}
    config = next(r for r in resources if r["kind"] == "ConfigMap")["data"]
    assert ports == expose | {int(config["CANASTA_METRICS_PORT"])}
    user = [rest for word, rest in runtime if word == "USER"][-1]
    uid, _, gid = user.partition(":")
    assert int(uid) == pod["securityContext"]["runAsUser"] != 0, "numeric, non-root, as k8s"
    assert int(gid) == pod["securityContext"]["runAsGroup"]


def test_entrypoint_is_exec_form_of_the_service() -> None:
    runtime = _stages()[-1]
    entry = json.loads([rest for word, rest in runtime if word == "ENTRYPOINT"][-1])
    assert isinstance(entry, list), "exec form: the service is PID 1 and gets SIGTERM"
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert entry == [f"/opt/venv/bin/{name}" for name, target in scripts.items()
                     if target == "service.server:main"]
    assert ("STOPSIGNAL", "SIGTERM") in runtime
    assert not [w for w, _ in _instructions() if w in ("CMD", "ADD")]


def test_codegen_extra_matches_dev() -> None:
    """The image generates code with the `codegen` extra; tests use `dev`: same pins."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    assert extras["codegen"] and set(extras["codegen"]) <= set(extras["dev"])


# --- .dockerignore ------------------------------------------------------------------------


def _rules() -> list[tuple[bool, re.Pattern[str]]]:
    rules = []
    for line in (ROOT / ".dockerignore").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        negate = line.startswith("!")
        pattern = line.lstrip("!").strip("/")
        regex = "".join(".*" if part == "**" else re.escape(part).replace(r"\*", "[^/]*")
                        .replace(r"\?", "[^/]") for part in re.split(r"(\*\*)", pattern))
        rules.append((negate, re.compile(regex.replace(".*/", "(.*/)?"))))
    return rules


def _ignored(rel: str) -> bool:
    """Docker's rule: the last pattern matching the path or one of its parents decides."""
    parts = rel.split("/")
    prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    result = False
    for negate, regex in _rules():
        if any(regex.fullmatch(p) for p in prefixes):
            result = not negate
    return result


def test_dockerignore_sends_what_the_build_copies_and_nothing_else() -> None:
    build = _stages()[0]
    sources = [src for word, rest in build if word == "COPY" for src in rest.split()[:-1]]
    assert sources
    for src in sources:
        path = ROOT / src
        assert path.exists(), src
        files = [p for p in path.rglob("*") if p.is_file()] if path.is_dir() else [path]
        for file in files:
            rel = file.relative_to(ROOT).as_posix()
            if "__pycache__" not in rel and not rel.startswith("engine/_native/"):
                assert not _ignored(rel), f"{rel} is copied but .dockerignore drops it"
    # a local compiled engine stays out: the image compiles its own (deploy/compile_engine.py)
    for rel in ("tests/test_smoke.py", ".git/HEAD", ".venv/bin/python", "gen/python/x.py",
                ".dev-keys/seal.keys", "engine/__pycache__/x.pyc", "k8s/base/deployment.yaml",
                "engine/_native/SOURCES", "engine/_native/legal.cpython-311-x86_64-linux-gnu.so"):
        assert _ignored(rel), rel


def test_the_build_stage_has_every_file_pyproject_names() -> None:
    """The wheel is built from /src (`pip wheel ... /src`): the readme and the license files
    pyproject.toml names must be copied there and pass .dockerignore, or the image's package
    goes without them (setuptools only warns: "Pattern 'LICENSE' did not match any files")."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    needed = ["pyproject.toml", project["readme"], *project["license-files"]]
    build = _stages()[0]
    assert [rest for word, rest in build if word == "WORKDIR"][0] == "/src"
    copied = {src for word, rest in build if word == "COPY" and not rest.startswith("--")
              for *srcs, dst in [rest.split()] if not dst.startswith("/") for src in srcs}
    for rel in needed:
        assert (ROOT / rel).is_file(), rel
        assert rel in copied, f"{rel} is named in pyproject.toml but not copied into /src"
        assert not _ignored(rel), f"{rel} is named in pyproject.toml but .dockerignore drops it"


def test_the_image_compiles_the_engine_and_checks_it_runs() -> None:
    """The build stage compiles the engine with mypyc and fails unless the installed
    engine then runs compiled (engine/build.py)."""
    runs = [rest for word, rest in _stages()[0] if word == "RUN"]
    compile_step = [r for r in runs if "deploy/compile_engine.py" in r]
    assert len(compile_step) == 1
    assert "engine.BUILD == 'compiled'" in compile_step[0]
    assert "python -I" in compile_step[0]  # not the /src copy in the working directory


def test_protobuf_runs_on_upb() -> None:
    """The image pins upb; the tests run on it too (the pure-Python backend is ~100x slower)."""
    assert api_implementation.Type() == "upb"


def test_the_service_version_is_the_one_changelog_k8s_and_docs_name() -> None:
    """pyproject.toml's version is what the next release tags (CHANGELOG.md, *Version tags*),
    so it must be the version of the changelog's top section, the image tag the production
    overlay pins and the tag docs/operations.md builds; before, it said 0.1.0 beside an
    unreleased 0.12.0."""
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    top = re.search(r"^## (?:Unreleased \()?(\d+\.\d+\.\d+)", (ROOT / "CHANGELOG.md").read_text(),
                    re.MULTILINE)
    assert top is not None, "CHANGELOG.md has no version section"
    assert version == top.group(1)
    overlay = (ROOT / "k8s/overlays/production/kustomization.yaml").read_text()
    assert f'newTag: "{version}"' in overlay
    tags = set(re.findall(r"canasta-rules:(\S+)", (ROOT / "docs/operations.md").read_text()))
    assert tags == {version}
