"""The lock files (requirements/*.txt, `make lock`) pin every Python dependency with hashes,
agree with pyproject.toml, and are what `make setup` and the image install (step 10: before,
every install resolved version ranges anew, `cryptography>=46` without an upper bound)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
LOCKS = ROOT / "requirements"
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
EXTRAS = PROJECT["optional-dependencies"]
# lock file -> the pyproject requirements it must satisfy
INPUTS = {
    "runtime.txt": PROJECT["dependencies"],
    "build.txt": PROJECT["dependencies"] + EXTRAS["codegen"] + EXTRAS["native"],
    "dev.txt": PROJECT["dependencies"] + EXTRAS["dev"],
}


def _entries(name: str) -> dict[str, tuple[str, list[str], str]]:
    """name -> (version, hashes, marker) of each requirement in a lock file."""
    text = re.sub(r"\\\n", " ", (LOCKS / name).read_text())
    out = {}
    for line in text.splitlines():
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        spec, _, rest = line.partition(" --hash=")
        hashes = re.findall(r"--hash=(sha256:[0-9a-f]{64})", " --hash=" + rest)
        requirement = Requirement(spec.strip())
        pinned = [s for s in requirement.specifier if s.operator == "=="]
        assert len(pinned) == 1 and len(requirement.specifier) == 1, (name, line)
        out[canonicalize_name(requirement.name)] = (
            pinned[0].version, hashes, str(requirement.marker or ""))
    return out


@pytest.mark.parametrize("name", [*INPUTS, "lock-tool.txt"])
def test_every_pin_is_exact_and_hashed(name: str) -> None:
    entries = _entries(name)
    assert entries
    unhashed = [pkg for pkg, (_, hashes, _) in entries.items() if not hashes]
    assert not unhashed, f"{name}: no hash for {unhashed} (make lock)"


@pytest.mark.parametrize("name", list(INPUTS))
def test_the_lock_satisfies_pyproject(name: str) -> None:
    """Each requirement of pyproject.toml that applies here has a pin in the lock within
    its range: a dependency added to pyproject.toml without `make lock` fails here (make
    setup installs the project with --no-deps, so nothing else would bring it)."""
    entries = _entries(name)
    env = default_environment()
    for line in INPUTS[name]:
        requirement = Requirement(line)
        if requirement.marker is not None and not requirement.marker.evaluate(env):
            continue
        key = canonicalize_name(requirement.name)
        assert key in entries, f"{requirement.name} is not in requirements/{name}: make lock"
        version = entries[key][0]
        assert requirement.specifier.contains(version, prereleases=True), (
            f"requirements/{name} pins {requirement.name}=={version}, outside "
            f"{requirement.specifier}: make lock")


@pytest.mark.parametrize("name", ["runtime.txt", "build.txt"])
def test_the_image_gets_the_versions_the_tests_ran(name: str) -> None:
    dev = _entries("dev.txt")
    for pkg, (version, _, _) in _entries(name).items():
        assert pkg in dev and dev[pkg][0] == version, (name, pkg, version, dev.get(pkg))


def test_every_runtime_dependency_has_an_upper_bound() -> None:
    for line in PROJECT["dependencies"]:
        requirement = Requirement(line)
        assert any(s.operator in ("<", "<=", "==", "~=", "===")
                   for s in requirement.specifier), f"{line}: no upper bound"


def test_setup_installs_from_the_lock() -> None:
    makefile = (ROOT / "Makefile").read_text()
    stamp = next(ln for ln in makefile.splitlines() if ln.startswith("STAMP :="))
    assert "pyproject.toml" in stamp and "$(LOCK_DEV)" in stamp  # a new lock reinstalls
    assert "LOCK_DEV := requirements/dev.txt" in makefile
    recipe = makefile.split("$(STAMP): pyproject.toml $(LOCK_DEV)\n", 1)[1].split("\n\n", 1)[0]
    assert "pip install -q --require-hashes -r $(LOCK_DEV)" in recipe
    assert "--no-deps --no-build-isolation -e ." in recipe
    assert "--upgrade" not in recipe  # nothing outside the lock
    assert re.search(r"^lock: ", makefile, re.MULTILINE)


def test_the_image_installs_from_the_lock() -> None:
    dockerfile = re.sub(r"\\\n", " ", (ROOT / "deploy" / "Dockerfile").read_text())
    installs = [ln for ln in dockerfile.splitlines()
                if "pip install" in ln or "pip wheel" in ln]
    assert installs
    for line in installs:
        for part in re.split(r"&&", line):
            if "pip install" in part or "pip wheel" in part:
                assert ("--require-hashes -r requirements/" in part
                        or "--no-deps" in part), part
    assert "--require-hashes -r requirements/runtime.txt" in dockerfile
    assert "--require-hashes -r requirements/build.txt" in dockerfile
    ignore = (ROOT / ".dockerignore").read_text().splitlines()
    assert {"!requirements/runtime.txt", "!requirements/build.txt"} <= set(ignore)
