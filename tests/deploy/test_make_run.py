"""The README's `make NATIVE=0 run`: it "skips the compile and runs the same rules as plain
Python (so does `CANASTA_ENGINE=pure`)". The engine runs a compiled build whenever a
current one is there (engine/build.py), so skipping the compile alone is not enough."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _service_command(*args: str) -> str:
    """The line `make run` would start the service with (``make -n``: nothing runs)."""
    if shutil.which("make") is None:
        pytest.skip("no make on this machine")
    out = subprocess.run(["make", "-n", "--no-print-directory", *args, "run"], cwd=ROOT,
                         check=True, capture_output=True, text=True).stdout
    return next(line for line in reversed(out.splitlines()) if " -m service" in line)


def test_make_native_0_run_runs_the_engine_as_plain_python() -> None:
    """It only skipped the compile: after an earlier `make run` had compiled the engine,
    `make NATIVE=0 run` ran the compiled build."""
    assert "CANASTA_ENGINE=pure " in _service_command("NATIVE=0")
    assert "CANASTA_ENGINE" not in _service_command()
