"""A seat joining while its table changes: the change is not lost to it. The host checks
the seat's token against the table it loads, then adds the socket to those it pushes to;
with a store whose ``load`` suspends (an asyncio driver, as PostgreSQL's asyncpg), a move
can land between the two, its push going to the sockets open then."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

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
