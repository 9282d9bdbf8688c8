"""Which build of the engine runs: the mypyc-compiled one when it matches these sources.

``deploy/compile_engine.py`` (run by ``make setup``) compiles the engine's modules
(all but :data:`UNCOMPILED`) with mypyc into ``engine/_native/``
and writes there the digest of the sources it compiled. The same source runs
either way; compiled, random playouts need 1.5 to 1.6 times fewer instructions.

At import, :func:`select` puts the compiled modules first on the package's path
only when the recorded digest equals the digest of the sources on disk (and of
this interpreter's extension suffix), so an edited module never runs stale
compiled code: it runs as plain Python until the next ``make setup``.
``CANASTA_ENGINE=pure`` asks for plain Python. This is the engine's only file
access, and it reads only the engine's own files.
"""

from __future__ import annotations

import hashlib
import os
import sysconfig
import warnings
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
NATIVE = PACKAGE / "_native"
STAMP = NATIVE / "SOURCES"
# Not compiled: this module and the package files that call it run before the choice.
UNCOMPILED = ("__init__.py", "build.py", "mayi/__init__.py")


def _sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py")
                  if "_native" not in p.relative_to(PACKAGE).parts)


def compiled_sources() -> list[Path]:
    """The modules the compiled build is made of, in a fixed order."""
    return [p for p in _sources() if p.relative_to(PACKAGE).as_posix() not in UNCOMPILED]


def digest() -> str:
    """What a compiled build must have been made from: every engine source (the compiled
    modules were type-checked against all of them) and the interpreter's ABI suffix."""
    h = hashlib.sha256(str(sysconfig.get_config_var("EXT_SUFFIX")).encode())
    for path in _sources():
        h.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()


def _choose() -> str:
    if os.environ.get("CANASTA_ENGINE", "").strip().lower() == "pure" or not STAMP.is_file():
        return "pure"
    if STAMP.read_text().strip() != digest():
        warnings.warn("engine/_native was compiled from other sources: running the pure "
                      "Python engine (make setup compiles it again)", stacklevel=4)
        return "pure"
    return "compiled"


_chosen: list[str] = []  # the choice, made once per process


def select(package_path: list[str], subpackage: str = "") -> str:
    """Put the compiled modules first on a package's ``__path__`` (``subpackage``: its
    directory under ``engine``) when they are current; the build in use: ``"compiled"``
    or ``"pure"``. A package with uncompiled modules calls this from its ``__init__``."""
    if not _chosen:
        _chosen.append(_choose())
    if _chosen[0] == "compiled":
        package_path.insert(0, str(NATIVE / subpackage))
    return _chosen[0]
