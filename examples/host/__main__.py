"""``python -m examples.host``: serve the host (``make host`` starts the rules service too).

Settings from the environment: ``CANASTA_HOST_PORT`` (8090), ``CANASTA_HOST_BIND``
(127.0.0.1), ``CANASTA_HOST_RULES`` (the rules service's gRPC target, 127.0.0.1:50051),
``CANASTA_HOST_DB`` (the SQLite file, .cache/host/tables.db).
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

import grpc
import uvicorn
from canasta_client import AsyncCanastaClient

from .app import create_app
from .listener import listener, server_config
from .store import SqliteStore

log = logging.getLogger("canasta.host")


def page_url(bind: str, port: int) -> str:
    """The address to open for a host listening on ``bind``: a wildcard address is no place
    to browse to, so its family's loopback stands for it (``0.0.0.0``: 127.0.0.1, ``::``:
    ::1), and an IPv6 address is bracketed (``http://[::1]:8090``; it read ``http://:::8090``)."""
    host = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(bind, bind)
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    port = int(os.environ.get("CANASTA_HOST_PORT", "8090"))
    bind = os.environ.get("CANASTA_HOST_BIND", "127.0.0.1")
    rules = os.environ.get("CANASTA_HOST_RULES", "127.0.0.1:50051")
    db = Path(os.environ.get("CANASTA_HOST_DB", ".cache/host/tables.db"))
    with grpc.insecure_channel(rules) as probe:
        try:  # the rules service may still be starting (make host starts both at once)
            grpc.channel_ready_future(probe).result(timeout=30)
        except grpc.FutureTimeoutError:
            log.error("no rules service at %s (CANASTA_HOST_RULES)", rules)
            return 1
    store = SqliteStore(db)
    log.info("tables in %s; rules service at %s; open %s", db, rules, page_url(bind, port))
    app = create_app(store, lambda: AsyncCanastaClient(rules, timeout=10.0))
    config = server_config(app, bind, port, "info")
    server = uvicorn.Server(config)
    server.run(sockets=[listener(config)])
    store.close()
    return 0 if server.started else 1  # (as uvicorn.run exits when its startup fails)


if __name__ == "__main__":
    sys.exit(main())
