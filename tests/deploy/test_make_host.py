"""`make host` after `make run`: the README's newcomer runs the service, then the host. The
rules service `make host` would start beside the host cannot bind the port `make run` holds;
the host is to use the one already there, saying so, without a service failing to start."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from tests.service.servers import running

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.mark.skipif(shutil.which("make") is None, reason="no make on this machine")
def test_make_host_uses_the_rules_service_already_listening(tmp_path: Path) -> None:
    port = _free_port()
    env = {**os.environ, "CANASTA_HOST_PORT": str(port), "CANASTA_HOST_DB": str(tmp_path / "t.db")}
    with running() as rules:
        env["CANASTA_HOST_RULES"] = rules.grpc_target
        make = subprocess.Popen(["make", "--no-print-directory", "host"], cwd=ROOT, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                start_new_session=True)
        try:
            deadline = time.monotonic() + 120  # make's set-up check, then the host's start
            served = False
            while not served and make.poll() is None and time.monotonic() < deadline:
                try:
                    served = httpx.get(f"http://127.0.0.1:{port}/api/variants").status_code == 200
                except httpx.TransportError:
                    time.sleep(0.5)
        finally:
            if make.poll() is None:
                os.killpg(make.pid, signal.SIGINT)  # Ctrl-C
            out = make.communicate(timeout=30)[0]
    assert served, out
    assert f"a rules service already listens on {rules.grpc_target}" in out, out
    assert "cannot listen" not in out and "Address already in use" not in out, out
