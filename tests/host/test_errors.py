"""What fails around a seat's socket ends cleanly: a client gone before its hello, or the
store failing (a database error) while a seat joins or plays. The host logs the error and
closes the socket with a code (1011, and no internals, for its own failure), never with a
handler's traceback ("Exception in ASGI application") or a socket dropped without a close
frame (1006); an HTTP route answers a 500 refusal. The bots wait a failing store out."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from canasta_client import AsyncCanastaClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from examples.host.bots import Bots
from examples.host.store import SqliteStore, Table
from examples.host.tables import Tables
from tests.host.hosts import Host, Player, hosting
from tests.service.servers import Running


class Failing(SqliteStore):
    """A store whose every ``load`` and ``commit`` raise ``error`` while :attr:`failing`
    is set, as a database gone away does, or a corrupt row's JSON."""

    def __init__(self, path: Path, error: Exception) -> None:
        super().__init__(path)
        self.error = error
        self.failing = threading.Event()
        self.failures = 0  # the next calls that fail, besides

    def _check(self) -> None:
        if self.failures > 0:
            self.failures -= 1
            raise self.error
        if self.failing.is_set():
            raise self.error

    async def create(self, table: Table) -> None:
        self._check()
        await super().create(table)

    async def load(self, game_id: str) -> Table | None:
        self._check()
        return await super().load(game_id)

    async def commit(self, table: Table, expected_seq: int) -> bool:
        self._check()
        return await super().commit(table, expected_seq)


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


def closed_with(player: Player) -> int | None:
    """The code the host closed ``player``'s socket with (``None``: no close frame)."""
    with pytest.raises(ConnectionClosed):
        while True:
            player.drain(5.0)
            player.ws.recv(timeout=5.0)
    return player.ws.close_code


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


ERRORS = {
    "database gone": sqlite3.OperationalError("disk I/O error at /secret/tables.db"),
    # a ValueError the store raises is the host's failure, no bad request of the seat
    "corrupt row": json.JSONDecodeError("Expecting value in /secret/tables.db", "", 0),
}


@pytest.mark.parametrize("error", ERRORS.values(), ids=ERRORS)
def test_a_store_error_closes_the_socket(rules: Running, tmp_path: Path,
                                         error: Exception) -> None:
    db = tmp_path / "tables.db"
    store = Failing(db, error)
    with hosting(db, rules.grpc_target, store=store) as host:
        created = host.create("classic", 2, {})
        game_id, link = created["game_id"], created["seats"][0]["link"]
        player = Player(host, link)
        player.wait(lambda s: s["type"] == "state")
        with logged() as logs:
            store.failing.set()
            # a message the store fails under: its move may or may not have landed, so the
            # socket closes 1011 and the seat's page joins again (and loads the table)
            player.send(type="next", seq=player.state["seq"])
            assert closed_with(player) == 1011
            assert player.ws.close_reason == "the host failed; join again"  # and no more
            # a seat joining while the store fails: its token is unchecked, so 1011, not
            # 4403 (on which the seat's page would stop joining again)
            joining = Player(host, link)
            assert closed_with(joining) == 1011
            settled(host)
            store.failing.clear()
        assert logs.errors("uvicorn") == []  # no traceback of a handler
        errors = logs.errors("canasta.host.app")
        assert len(errors) == 2 and all(game_id in e for e in errors), errors
        for p in (player, joining):  # the seat is told nothing of what failed
            assert all("secret" not in raw for raw in p.raw)
        # the store back, the seat joins and plays as before
        again = Player(host, link)
        again.wait(lambda s: s["type"] == "state")
        again.send(type="next", seq=again.state["seq"])
        again.wait(lambda s: bool(again.refusals))
        assert again.refusals[-1]["reason"] == "HAND_NOT_OVER"
        again.close()


def test_a_store_error_is_a_500_refusal(rules: Running, tmp_path: Path) -> None:
    """An HTTP route the store fails under answers a 500 refusal naming ``INTERNAL`` in
    JSON, as every other refusal (the index page reads its reason), the error logged and
    nothing of it sent: never Starlette's plain-text page and a handler's traceback."""
    db = tmp_path / "tables.db"
    store = Failing(db, ERRORS["database gone"])
    with hosting(db, rules.grpc_target, store=store) as host:
        created = host.create("classic", 2, {})
        game_id, token = created["game_id"], created["seats"][0]["link"].partition("#")[2]
        with logged() as logs:
            store.failing.set()
            answers = [
                httpx.post(f"{host.base}/api/tables", timeout=20,
                           json={"variant": "classic", "players": 2}),
                httpx.get(f"{host.base}/api/tables/{game_id}", timeout=20),
                httpx.get(f"{host.base}/api/tables/{game_id}/record", params={"seat": 0},
                          headers={"Authorization": f"Bearer {token}"}, timeout=20)]
            store.failing.clear()
        for answer in answers:
            assert answer.status_code == 500, answer.text
            assert answer.json()["reason"] == "INTERNAL" and "secret" not in answer.text
        assert logs.errors("uvicorn") == []
        assert len(logs.errors("canasta.host.app")) == 3
        assert host.status(game_id)["seq"] == 0  # the store back, the host answers again


def test_the_bots_wait_out_a_failing_store(rules: Running, tmp_path: Path) -> None:
    """A table's bot task whose store fails logs it and looks again after a wait, as when
    the rules service is away, and the game goes on once the store is back: never a task
    ended by an exception nobody retrieves, and a table of bots alone (no seat to wake it)
    never stuck until a restart."""
    async def run() -> tuple[Table, BaseException | None]:
        store = Failing(tmp_path / "tables.db", ERRORS["database gone"])
        client = AsyncCanastaClient(rules.grpc_target, timeout=20.0)
        tables = Tables(store, lambda: client)
        bots = Bots(tables, retry_seconds=0.01)
        table = await tables.create("classic", 2, {0: "greedy", 1: "greedy"},
                                    {"target_score": "1"})
        store.failures = 3  # the task's first three looks at the table
        bots.wake(table.game_id)
        task = bots._tasks[table.game_id]
        await asyncio.wait([task])
        await bots.idle()
        store.failures = 0  # all spent unless the task stopped at the first
        final = await tables.get(table.game_id)
        store.close()
        await client.close()
        return final, task.exception()

    with logged() as logs:
        final, error = asyncio.run(run())
    assert error is None and final.game_over and final.seq > 10
    errors = logs.errors("canasta.host.bots")
    assert len(errors) == 3 and all(final.game_id in e for e in errors), errors
