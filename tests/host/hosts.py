"""The reference host (examples/host) on real sockets for the tests: the rules service on
port 0 in-process (tests/service/servers.py), the host under uvicorn on port 0 in a
thread, players as WebSocket clients."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from canasta_client import AsyncCanastaClient, CanastaClient
from websockets.sync.client import ClientConnection, connect

from engine import records
from examples.host.app import create_app
from examples.host.listener import listener, server_config
from examples.host.store import SqliteStore, Table


class Host:
    """One host process's worth: an app over the SQLite file ``db``, served in a thread.
    ``connect`` makes the app's client (a wrapped one, for a fault or a key rotation);
    ``store`` is one over ``db`` to use instead of a plain :class:`SqliteStore`."""

    def __init__(self, db: Path, rules_target: str,
                 connect: Callable[[], AsyncCanastaClient] | None = None,
                 store: SqliteStore | None = None) -> None:
        self.store = store or SqliteStore(db)
        # the app's own client is made on uvicorn's loop; the tests check with this one
        self.client = CanastaClient(rules_target, timeout=20.0)
        self.app = create_app(self.store, connect or (
            lambda: AsyncCanastaClient(rules_target, timeout=20.0)))
        config = server_config(self.app, "127.0.0.1", 0, "warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, args=([listener(config)],),
                                       daemon=True)

    def start(self) -> Host:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the host did not start"
            assert self.thread.is_alive(), "the host stopped while starting"
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(20)
        self.store.close()
        self.client.close()

    @property
    def port(self) -> int:
        return int(self.server.servers[0].sockets[0].getsockname()[1])

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def create(self, variant: str, players: int, bots: dict[int, str],
               options: dict[str, Any] | None = None) -> dict[str, Any]:
        answer = httpx.post(f"{self.base}/api/tables", timeout=20,
                            json={"variant": variant, "players": players,
                                  "bots": {str(s): lvl for s, lvl in bots.items()},
                                  "options": options or {}})
        assert answer.status_code == 201, answer.text
        created: dict[str, Any] = answer.json()
        return created

    def status(self, game_id: str) -> dict[str, Any]:
        answer = httpx.get(f"{self.base}/api/tables/{game_id}", timeout=20)
        assert answer.status_code == 200, answer.text
        got: dict[str, Any] = answer.json()
        return got


@contextmanager
def hosting(db: Path, rules_target: str,
            connect: Callable[[], AsyncCanastaClient] | None = None,
            store: SqliteStore | None = None) -> Iterator[Host]:
    host = Host(db, rules_target, connect, store).start()
    try:
        yield host
    finally:
        host.stop()


def stored(db: Path, game_id: str) -> Table:
    """The table as the store holds it, read through a store of its own."""
    store = SqliteStore(db)
    try:
        table = asyncio.run(store.load(game_id))
    finally:
        store.close()
    assert table is not None
    return table


def check_record(client: CanastaClient, table: Table) -> str:
    """The host's full record of ``table`` exported and replayed (engine.records): every
    move legal, and the final scores those of the host's snapshot (ScoreHand). The record."""
    full = client.export_record(table.snapshot, table.record, token=table.host_token).record
    final = records.replay(records.parse(full))
    assert final.result is not None, "the hand is not over in the replay"
    scored = client.score_hand(table.snapshot, token=table.host_token)
    assert [(s.total, s.cumulative) for s in scored.sides] == [
        (s.total, s.cumulative) for s in final.result.sides]
    assert "\npoints: " in full and "\ntotals: " in full
    return full


class Player:
    """A person at one seat: a WebSocket client that joined with the seat's link. Every
    message it receives is kept (raw text), for the leak checks."""

    def __init__(self, host: Host, link: str) -> None:
        path, _, token = link.partition("#")
        _, game_id, seat = path.rsplit("/", 2)
        self.game_id, self.seat, self.token = game_id, int(seat), token
        self._stack = ExitStack()
        self.ws: ClientConnection = self._stack.enter_context(
            connect(f"ws://127.0.0.1:{host.port}/ws/{game_id}/{seat}"))
        self.ws.send(json.dumps({"token": token}))
        self.raw: list[str] = []
        self.state: dict[str, Any] = {}
        self.refusals: list[dict[str, Any]] = []

    def close(self) -> None:
        self._stack.close()

    def _take(self, raw: str) -> None:
        self.raw.append(raw)
        msg = json.loads(raw)
        if msg["type"] == "state":
            if not self.state or msg["seq"] >= self.state["seq"]:
                self.state = msg
        else:
            self.refusals.append(msg)

    def drain(self, wait: float = 0.0) -> None:
        """Read what has arrived (waiting up to ``wait`` seconds for the first message)."""
        timeout: float | None = wait
        while True:
            try:
                raw = self.ws.recv(timeout=timeout)
            except TimeoutError:
                return
            self._take(str(raw))
            timeout = 0

    def wait(self, until: Any, timeout: float = 30.0) -> dict[str, Any]:
        """Read until ``until(state)`` holds; the state."""
        deadline = time.monotonic() + timeout
        while not (self.state and until(self.state)):
            assert time.monotonic() < deadline, f"seat {self.seat} waited in vain: {self.state}"
            self.drain(0.2)
        return self.state

    def my_turn(self) -> bool:
        s = self.state
        return bool(s) and s["awaited"] == self.seat and not s["hand_over"]

    def send(self, **msg: Any) -> None:
        self.ws.send(json.dumps(msg))

    def play(self, move: str) -> None:
        self.send(type="move", move=move, seq=self.state["seq"])

    def pick(self) -> str:
        """The first listed move that is not undo or ask (as clients/python's example)."""
        moves: list[str] = self.state["view"]["legal_moves"]
        return next(m for m in moves if m not in ("undo", "ask"))
