"""A short soak (bench/soak.py, the ``make soak`` script) with the same pass criteria:
no unexpected answer, no error in the server's log, exit 0 on SIGTERM, RSS growth < 10%.
Its callers present the credentials their games were dealt (host and seat tokens) and
make some calls without one or with a wrong one, whose refusals are expected answers.

Six seconds after a three-second warm-up, with a small state cache so the warm-up
fills it (``make soak`` runs 60 s after 90 s, with the default cache), and with two
gRPC engine threads (``CANASTA_GRPC_THREADS``) so that calls also queue for a thread.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import soak  # noqa: E402


def test_short_soak(tmp_path: Path) -> None:
    out = tmp_path / "soak.json"
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "soak.py"), "--seconds", "6",
                          "--warmup", "3", "--state-cache", "64", "--grpc-threads", "2",
                          "--out", str(out)],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    result = json.loads(out.read_text())
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert result["passed"] and result["unexpected"] == 0
    assert result["grpc_threads"] == 2
    assert result["server_exit_code"] == 0 and result["server_log_errors"] == 0
    assert result["rss_kib"]["growth"] < 0.10
    for face in ("grpc", "rest"):
        assert result["by_transport"][face]["calls"] > 100, result["by_transport"]
        ran = {key.split(" ", 1)[1] for key in result["by_kind"] if key.startswith(face)}
        kinds = {k for k, _ in soak.KINDS} - ({"short_deadline"} if face == "rest" else set())
        assert kinds <= ran, kinds - ran  # every kind of call, legal and bad, on both faces
        roles = {key.split(" ", 1)[1] for key, n in result["by_role"].items()
                 if key.startswith(face) and n}
        assert roles == {"host", "seat", "spectator", "wrong"}, roles  # each credential
