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


def _serve(env: dict[str, str], port: int) -> tuple[bool, str]:
    """Run `make host` until its page answers (then Ctrl-C): whether it did, and make's output."""
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
        if served:  # a table needs the rules service: a deal through it
            table = httpx.post(f"http://127.0.0.1:{port}/api/tables",
                               json={"variant": "classic", "players": 2}, timeout=30)
            served = table.status_code == 201 and len(table.json()["seats"]) == 2
    finally:
        if make.poll() is None:
            os.killpg(make.pid, signal.SIGINT)  # Ctrl-C
        out = make.communicate(timeout=30)[0]
    return served, out


def _host_env(tmp_path: Path, port: int) -> dict[str, str]:
    return {**os.environ, "CANASTA_HOST_PORT": str(port),
            "CANASTA_HOST_DB": str(tmp_path / "t.db")}


@pytest.mark.skipif(shutil.which("make") is None, reason="no make on this machine")
def test_make_host_uses_the_rules_service_already_listening(tmp_path: Path) -> None:
    port = _free_port()
    env = _host_env(tmp_path, port)
    with running() as rules:
        env["CANASTA_HOST_RULES"] = rules.grpc_target
        served, out = _serve(env, port)
    assert served, out
    assert f"a rules service already listens on {rules.grpc_target}" in out, out
    assert "cannot listen" not in out and "Address already in use" not in out, out


def _free_v6_port() -> int | None:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
            port: int = s.getsockname()[1]
            return port
    except OSError:
        return None


@pytest.mark.skipif(shutil.which("make") is None, reason="no make on this machine")
def test_make_host_starts_its_rules_service_on_an_ipv6_address(tmp_path: Path) -> None:
    """CANASTA_HOST_RULES=[::1]:PORT: the service make starts binds ::1 (make split the
    target at its first colon before, and the service could not listen on "[")."""
    rules_port = _free_v6_port()
    if rules_port is None:
        pytest.skip("no IPv6 loopback on this machine")
    port = _free_port()
    env = {**_host_env(tmp_path, port), "CANASTA_HOST_RULES": f"[::1]:{rules_port}"}
    env.pop("CANASTA_BIND", None)
    env.pop("CANASTA_GRPC_PORT", None)
    served, out = _serve(env, port)
    assert served, out
    assert f'"grpc": "::1:{rules_port}"' in out, out
