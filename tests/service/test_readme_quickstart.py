"""The README's *Quickstart with curl*, run as a newcomer pastes it: the shell block, verbatim,
with ``S`` pointing at a live server, must print what the README says it printed (but the
tokens, new on every deal), and say so on stderr when no server answers."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from tests.service.servers import Running

README = Path(__file__).resolve().parents[2] / "README.md"
# A game's credential (its key id is the server's, its secret new on every deal)
TOKEN = re.compile(r"ct1\.(host|s\d+)\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+")

pytestmark = pytest.mark.skipif(not (shutil.which("curl") and shutil.which("jq")),
                                reason="the quickstart needs curl and jq")


def _quickstart() -> tuple[str, list[str]]:
    """The section's shell block and the lines of its *What it printed* block."""
    section = README.read_text().split("## Quickstart with curl", 1)[1].split("\n## ", 1)[0]
    script = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    printed = re.search(r"What it printed.*?```\n(.*?)```", section, re.DOTALL)
    assert script and printed, "the quickstart has its commands and what they printed"
    return script[1], printed[1].splitlines()


def _run(script: str, base: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", script], cwd=cwd, env={"PATH": os.environ["PATH"],
                          "S": base}, capture_output=True, text=True, timeout=60)


def _masked(line: str) -> str:
    return TOKEN.sub(lambda m: f"ct1.{m[1]}.KEY.SECRET", line)


def test_the_quickstart_prints_what_the_readme_shows(server: Running, tmp_path: Path) -> None:
    """Every command as written, in order, quietly: the same output but the tokens."""
    script, printed = _quickstart()
    done = _run(script, server.http_base, tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert [_masked(line) for line in done.stdout.splitlines()] == \
        [_masked(line) for line in printed]


def test_the_quickstart_says_when_no_server_answers(tmp_path: Path) -> None:
    """A newcomer's first mistake (no ``make run``, or another port): curl says it could not
    connect, rather than the block printing nothing at all."""
    with socket.socket() as free:  # a port nothing listens on
        free.bind(("127.0.0.1", 0))
        base = f"http://127.0.0.1:{free.getsockname()[1]}"
    script, _ = _quickstart()
    done = _run(script, base, tmp_path)
    assert "Failed to connect" in done.stderr or "Couldn't connect" in done.stderr, done.stderr
