"""Start ``python -m service`` for a benchmark: free loopback ports, settings given, none inherited."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def start_service(tmp: Path, name: str, settings: dict[str, str], log: Path | None = None
                  ) -> tuple[subprocess.Popen[bytes], dict[str, Any]]:
    """The server process and its ports (``grpc_port``, ``http_port``), once both listen
    (within a minute, else it exits).

    ``settings`` are ``CANASTA_*`` variables; the caller's own are not passed on. Its
    stderr goes to ``log`` (else nowhere).
    """
    ready = tmp / f"ready-{name}.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("CANASTA_")}
    env.update({"CANASTA_GRPC_PORT": "0", "CANASTA_HTTP_PORT": "0", **settings})
    with log.open("wb") if log else open(os.devnull, "wb") as err:
        proc = subprocess.Popen([sys.executable, "-m", "service", "--ready-file", str(ready)],
                                cwd=ROOT, env=env, stderr=err)
    deadline = time.monotonic() + 60
    while not ready.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            text = log.read_text() if log else ""
            raise SystemExit(f"the {name} server did not start\n{text}".rstrip())
        time.sleep(0.05)
    return proc, json.loads(ready.read_text())
