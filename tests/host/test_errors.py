"""What fails around a seat's socket ends cleanly: a client gone before its hello ends
its handler quietly, never with a handler's traceback ("Exception in ASGI
application")."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from websockets.sync.client import connect

from tests.host.hosts import Host, hosting
from tests.service.servers import Running


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def errors(self, logger: str) -> list[str]:
        return [r.getMessage() for r in self.records
                if r.levelno >= logging.ERROR and r.name.startswith(logger)]


@contextmanager
def logged() -> Iterator[Records]:
    """What uvicorn (an application's traceback) and the host log meanwhile."""
    handler = Records()
    loggers = [logging.getLogger(name) for name in ("uvicorn.error", "canasta.host")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


def settled(host: Host) -> None:
    """Wait until uvicorn holds no connection: every handler has ended (and logged)."""
    deadline = time.monotonic() + 10
    while host.server.server_state.connections:
        assert time.monotonic() < deadline, "a connection stayed open"
        time.sleep(0.01)


def test_a_socket_closed_before_its_hello(rules: Running, tmp_path: Path) -> None:
    """A page closed before it sent its token (or a probe that only connects): the host has
    nobody to close the socket for, and its handler ends quietly."""
    with hosting(tmp_path / "tables.db", rules.grpc_target) as host:
        created = host.create("classic", 2, {})
        path = created["seats"][0]["link"].partition("#")[0].removeprefix("/play")
        with logged() as logs:
            for _ in range(3):
                with connect(f"ws://127.0.0.1:{host.port}/ws{path}"):
                    pass  # closed at once, no hello
            settled(host)
        assert logs.errors("uvicorn") == [] and logs.errors("canasta") == []
