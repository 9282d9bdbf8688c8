"""A seat joining while its table changes: the change is not lost to it. The host checks
the seat's token against the table it loads, then adds the socket to those it pushes to;
with a store whose ``load`` suspends (an asyncio driver, as PostgreSQL's asyncpg), a move
can land between the two, its push going to the sockets open then."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import grpc
from canasta_client import AsyncCanastaClient, ResourceExhaustedError
from websockets.exceptions import ConnectionClosed

from examples.host.store import SqliteStore, Table
from tests.host.hosts import Player, hosting
from tests.service.servers import Running


class SlowLoad(SqliteStore):
    """A store whose next ``load`` once :attr:`armed` answers the row it read only after
    ``pause`` seconds, as a database across a network may."""

    def __init__(self, path: Path, pause: float) -> None:
        super().__init__(path)
        self.pause = pause
        self.armed = threading.Event()

    async def load(self, game_id: str) -> Table | None:
        table = await super().load(game_id)
        if self.armed.is_set():
            self.armed.clear()
            await asyncio.sleep(self.pause)
        return table


def test_a_move_while_a_seat_joins_reaches_it(rules: Running, tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    store = SlowLoad(db, pause=2.0)
    with hosting(db, rules.grpc_target, store=store) as host:
        created = host.create("classic", 2, {})
        links = [s["link"] for s in created["seats"]]
        first = Player(host, links[0])
        first.wait(lambda s: s["type"] == "state")
        mover = first if first.my_turn() else None
        store.armed.set()
        joining = Player(host, links[1])  # its token is checked on the table as loaded
        deadline = time.monotonic() + 10
        while store.armed.is_set():
            assert time.monotonic() < deadline, "the joining seat's table was never loaded"
            time.sleep(0.01)
        if mover is None:  # seat 1 is to move: it plays through a second socket of its own
            mover = Player(host, links[1])
            mover.wait(lambda s: s["type"] == "state")
        seq = mover.state["seq"]
        mover.play("draw")
        mover.wait(lambda s: s["seq"] == seq + 1)  # landed while the joining seat waited
        assert store.armed.is_set() is False and host.status(created["game_id"])["seq"] == seq + 1
        joining.wait(lambda s: s["seq"] == seq + 1, timeout=10)
        for p in {first, joining, mover}:
            p.close()


def test_the_host_forgets_a_table_when_its_seats_leave(rules: Running, tmp_path: Path) -> None:
    """A long-running host keeps nothing per table once its last socket closed, and
    nothing for a table no seat ever joined (its bots' moves are stored, not pushed)."""
    db = tmp_path / "tables.db"
    with hosting(db, rules.grpc_target) as host:
        players = host.app.state.players
        host.create("classic", 2, {0: "greedy", 1: "greedy"}, {"target_score": 1})
        created = host.create("classic", 2, {1: "greedy"})
        player = Player(host, created["seats"][0]["link"])
        player.wait(lambda s: s["type"] == "state")
        seq = player.state["seq"]
        if player.my_turn():
            player.play("draw")
            player.wait(lambda s: s["seq"] > seq)
        assert list(players._sockets) == [created["game_id"]]
        player.close()
        deadline = time.monotonic() + 10
        while players._sockets or players._latest:  # the socket's reader sees it close
            assert time.monotonic() < deadline, (dict(players._sockets), players._latest)
            time.sleep(0.01)


class ViewRefused:
    """The app's client, whose next ``view`` calls (:attr:`refusals` of them) the service
    refuses for load, as a busy service does a push's GetView; every other call is the
    real client's."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.inner: AsyncCanastaClient | None = None  # made on the app's loop, at first use
        self.refusals = 0

    def connect(self) -> Any:
        self.inner = AsyncCanastaClient(self.target, timeout=20.0)
        return self

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.inner, name)
        if name != "view":
            return method

        async def call(*args: Any, **kwargs: Any) -> Any:
            if self.refusals > 0:
                self.refusals -= 1
                raise ResourceExhaustedError(grpc.StatusCode.RESOURCE_EXHAUSTED, "busy",
                                             "TOO_MANY_CALLS", "canasta.v1", {},
                                             retry_after=0.05)
            return await method(*args, **kwargs)

        return call


def test_a_seat_whose_push_failed_is_not_left_behind(rules: Running, tmp_path: Path) -> None:
    """A change whose view the service refuses for a seat (busy, away) must not leave that
    seat showing the position before it: the change may have been the last one for a while
    (the seat is now to move, and waits for a state that says so). The seat either gets
    the state or its socket closes (not 4403) so that its page joins again and loads the
    table as stored."""
    db = tmp_path / "tables.db"
    client = ViewRefused(rules.grpc_target)
    with hosting(db, rules.grpc_target, connect=client.connect) as host:
        created = host.create("classic", 2, {})
        players = [Player(host, s["link"]) for s in created["seats"]]
        for p in players:
            p.wait(lambda s: s["type"] == "state")
        mover = next(p for p in players if p.my_turn())
        seq = mover.state["seq"]
        client.refusals = 1  # the push's first view: one of the two seats has none
        mover.play("draw")
        for p in players:
            try:
                p.wait(lambda s: s["seq"] == seq + 1, timeout=10)
            except ConnectionClosed:
                assert p.ws.close_code not in (None, 4403)
                again = Player(host, f"/play/{p.game_id}/{p.seat}#{p.token}")
                again.wait(lambda s: s["seq"] == seq + 1, timeout=10)
                again.close()
            p.close()
