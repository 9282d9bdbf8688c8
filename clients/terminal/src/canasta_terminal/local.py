"""A server of the rules for one table, when no ``--server`` is given.

It is ``python -m service`` of this same Python, on free loopback ports, with a
throw-away seal key and none of the caller's ``CANASTA_*`` settings, so the table
talks to it as to any server (gRPC, through the SDK). It is stopped with the table.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

START_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 10.0


class NoLocalServer(Exception):
    """The service is not installed beside the table, or did not start."""


@contextlib.contextmanager
def local_server() -> Iterator[str]:
    """Start the service; yields its gRPC target (``127.0.0.1:PORT``), stops it on exit.

    :raises NoLocalServer: it could not start (its log says why).
    """
    with tempfile.TemporaryDirectory(prefix="canasta-table-") as tmp:
        ready, log = Path(tmp) / "ready.json", Path(tmp) / "server.log"
        key = base64.b64encode(secrets.token_bytes(32)).decode("ascii")
        env = {k: v for k, v in os.environ.items() if not k.startswith("CANASTA_")}
        env.update(CANASTA_BIND="127.0.0.1", CANASTA_GRPC_PORT="0", CANASTA_HTTP_PORT="0",
                   CANASTA_SEAL_KEYS=f"table:{key}", CANASTA_ACCESS_LOG="false",
                   CANASTA_LOG_LEVEL="WARNING")
        with log.open("wb") as err:
            proc = subprocess.Popen([sys.executable, "-m", "service", "--ready-file", str(ready)],
                                    env=env, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=err)
        try:
            yield f"127.0.0.1:{_wait_ready(proc, ready, log)['grpc_port']}"
        finally:
            proc.terminate()
            try:
                proc.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _wait_ready(proc: subprocess.Popen[bytes], ready: Path, log: Path) -> dict[str, int]:
    """The ports the server wrote to its ready file once both of its faces listen."""
    deadline = time.monotonic() + START_TIMEOUT_S
    while not ready.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            tail = log.read_text(errors="replace").strip().splitlines()[-5:]
            raise NoLocalServer("\n".join(["the local server did not start "
                                           "(is the service installed here?)", *tail]))
        time.sleep(0.05)
    ports: dict[str, int] = json.loads(ready.read_text())
    return ports
