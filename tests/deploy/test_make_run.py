"""The README's `make NATIVE=0 run`: it "skips the compile and runs the same rules as plain
Python (so does `CANASTA_ENGINE=pure`)". The engine runs a compiled build whenever a
current one is there (engine/build.py), so skipping the compile alone is not enough."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _commands(target: str, *args: str) -> list[str]:
    """The Python programs ``make target`` would start (``make -n``: nothing runs), each
    with what its shell line sets before it."""
    if shutil.which("make") is None:
        pytest.skip("no make on this machine")
    out = subprocess.run(["make", "-n", "--no-print-directory", *args, target], cwd=ROOT,
                         check=True, capture_output=True, text=True).stdout
    # a line may start two programs ("make host": the service in the background, the host)
    return [part for line in out.splitlines() if "/python -m " in line
            for part in re.split(r"[;&]", line) if "/python -m " in part]


@pytest.mark.parametrize("target", ["run", "host", "demo"])
def test_make_native_0_runs_the_engine_as_plain_python(target: str) -> None:
    """It only skipped the compile: after an earlier `make run` had compiled the engine,
    `make NATIVE=0 run` ran the compiled build, and so did `make NATIVE=0 host` (the rules
    service beside the host, and the host) and `make NATIVE=0 demo`."""
    assert len(_commands(target, "NATIVE=0")) == {"host": 2}.get(target, 1)
    assert all("CANASTA_ENGINE=pure " in c for c in _commands(target, "NATIVE=0"))
    assert not any("CANASTA_ENGINE" in c for c in _commands(target))
