"""Compile the rules engine with mypyc into ``engine/_native`` (``make setup`` runs this).

The engine is plain Python that also compiles: every class of a state, a move or a
result is a regular Python class (``mypyc_attr(native_class=False)``), so compiled and
pure builds behave alike, and ``tests/test_build.py`` checks they play the same games.
(The classes that never travel in a snapshot are native: the games of engine/games.py,
whose methods the facade calls on every move, the rule sets and the generators'
helpers HandView and TurnFacts, whose fields the hot paths read.) The build
is skipped when ``engine/_native/SOURCES`` already records the current sources
(:func:`engine.build.digest`) and ``RECIPE`` this script. ``engine/build.py`` picks
the build at import.

Usage: ``python deploy/compile_engine.py [--force]``. Exit status 1 when the
compiler fails; the pure engine is left in place.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import os
import shutil
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["CANASTA_ENGINE"] = "pure"  # the digest comes from the sources, not a build

from engine import build  # noqa: E402

GENERATOR_NOTE = "warning: Treating generator comprehension as list"


def compile_engine(force: bool = False) -> int:
    want = build.digest()
    recipe = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()  # how it was compiled
    made_by = build.NATIVE / "RECIPE"
    if (not force and build.STAMP.is_file() and build.STAMP.read_text().strip() == want
            and made_by.is_file() and made_by.read_text().strip() == recipe):
        print("engine/_native is current")
        return 0
    # said before the silent part, so a first `make run` does not look hung
    print("compiling the rules engine with mypyc into engine/_native (the same rules, faster): about "
          "2-4 min, once per change of the engine; NATIVE=0 skips it (plain-Python engine)",
          flush=True)
    from mypyc.build import mypycify
    from setuptools import setup

    # setuptools reads pyproject.toml here and warns about its packaging metadata
    warnings.filterwarnings("ignore", module="setuptools")
    sources = [p.relative_to(ROOT).as_posix() for p in build.compiled_sources()]
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="mypyc-") as tmp:
        out, temp = Path(tmp) / "lib", Path(tmp) / "temp"
        cwd = Path.cwd()
        os.chdir(ROOT)  # mypyc names modules from paths relative to here
        try:
            # One group (one shared library, engine/_native/native__mypyc) given as a
            # `separate` plan: that turns off mypyc's whole-program class analysis, which
            # would compile `==` and isinstance() on the engine's plain Python classes as
            # identity and exact-type tests (equal moves would compare unequal).
            # mypyc prints one note per generator expression it builds as a list (expected,
            # the engine's any()/sum() arguments): that known noise is dropped, the rest shown
            said = io.StringIO()
            try:
                with contextlib.redirect_stdout(said):
                    modules = mypycify(sources, opt_level="3",
                                       separate=[(sources, "engine.native")],
                                       target_dir=str(Path(tmp) / "c"))
            finally:  # a compile error exits: its messages are shown all the same
                for line in said.getvalue().splitlines():
                    if not line.endswith(GENERATOR_NOTE):
                        print(line)
            setup(name="canasta-engine-native", ext_modules=modules, script_name="setup.py",
                  script_args=["-q", "build_ext", "--build-lib", str(out),
                               "--build-temp", str(temp)])
        finally:
            os.chdir(cwd)
        shutil.rmtree(build.NATIVE, ignore_errors=True)
        shutil.copytree(out / "engine", build.NATIVE)
    made_by.write_text(recipe + "\n")
    build.STAMP.write_text(want + "\n")
    print(f"compiled {len(sources)} engine modules into engine/_native "
          f"in {time.monotonic() - t0:.0f} s")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--force", action="store_true", help="compile even when current")
    args = parser.parse_args()
    try:
        return compile_engine(args.force)
    except (Exception, SystemExit) as err:  # setuptools reports a compiler error by exiting
        print(f"compile_engine: mypyc failed ({err}); the engine runs as plain Python",
              file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
