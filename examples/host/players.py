"""The players' connections and what each is sent: its own seat's view (asked with its own
seat token), the public move lines, and the table's public facts. Never the snapshot, the
host token, another seat's token, the seed or the host's record."""

from __future__ import annotations

import asyncio
import logging
import re
from collections import defaultdict
from typing import Any

from canasta_client import CanastaError
from google.protobuf.json_format import MessageToDict
from starlette.websockets import WebSocket

from .store import Table
from .tables import Tables

log = logging.getLogger("canasta.host.players")
# the record lines everyone saw: "SEAT MOVE" and "hand N" (never the header, a deck or a note)
PUBLIC_LINE = re.compile(r"^(\d+ [a-z][^{]*|hand \d+)$")
LOG_LINES = 60
REJOIN = "no view of the latest move; join again"  # the close reason of a failed push


def public_log(record: str) -> list[str]:
    """The move lines of the host's record (the last :data:`LOG_LINES`): the moves as
    everyone at the table saw them played."""
    lines = [line.strip() for line in record.splitlines()]
    return [line for line in lines if PUBLIC_LINE.match(line)][-LOG_LINES:]


def status(table: Table) -> dict[str, Any]:
    """What anyone may know of a table (the index page, the tests' polling)."""
    return {"game_id": table.game_id, "variant": table.variant, "players": table.players,
            "seq": table.seq, "awaited": table.awaited, "hand_over": table.hand_over,
            "game_over": table.game_over, "bots": {str(s): v for s, v in table.bots.items()}}


class Players:
    """The open WebSockets per table and seat; :meth:`push` sends each its seat's state."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self._sockets: dict[str, dict[int, set[WebSocket]]] = defaultdict(
            lambda: defaultdict(set))
        # the newest seq being pushed, per table with a socket open (both dicts forget a
        # table when its last socket leaves: a long-running host holds only live tables)
        self._latest: dict[str, int] = {}

    def join(self, game_id: str, seat: int, ws: WebSocket) -> None:
        self._sockets[game_id][seat].add(ws)

    def leave(self, game_id: str, seat: int, ws: WebSocket) -> None:
        seats = self._sockets.get(game_id)
        if seats is not None:
            seats[seat].discard(ws)
            if not any(seats.values()):
                del self._sockets[game_id]
                self._latest.pop(game_id, None)

    async def message(self, table: Table, seat: int) -> dict[str, Any]:
        """The state message of ``seat``: its own view, from the service, for its token."""
        view = await self.tables.view(table, seat)
        return {"type": "state", **status(table), "seat": seat,
                "view": MessageToDict(view, preserving_proto_field_name=True,
                                      always_print_fields_with_no_presence=True),
                "log": public_log(table.record)}

    async def send(self, ws: WebSocket, message: dict[str, Any]) -> None:
        try:
            await ws.send_json(message)
        except Exception:  # a closed socket: its reader removes it
            log.debug("send to a closed socket", exc_info=True)

    async def drop(self, ws: WebSocket) -> None:
        """Close ``ws`` with 1011 (join again), unless it is closed already; its reader
        then removes it."""
        try:
            await ws.close(1011, REJOIN)
        except Exception:  # a closed socket
            log.debug("close of a closed socket", exc_info=True)

    async def greet(self, ws: WebSocket, table: Table, seat: int) -> None:
        """Send a seat that just joined its state. ``table`` is loaded after :meth:`join`,
        so a change committed while the seat's token was checked is not missed (its push
        went to the sockets then open), and every later one is pushed to ``ws``; the state
        is skipped if a newer one is already on its way."""
        message = await self.message(table, seat)
        if self._latest.get(table.game_id, -1) <= table.seq:
            await self.send(ws, message)

    async def push(self, table: Table) -> None:
        """Send every connected seat of ``table`` its own state."""
        seats = self._sockets.get(table.game_id)
        if seats is None:
            return  # no socket open: a seat that joins later loads the table itself
        self._latest[table.game_id] = max(self._latest.get(table.game_id, -1), table.seq)
        for seat, sockets in list(seats.items()):
            if sockets:
                try:
                    message = await self.message(table, seat)
                except CanastaError as err:
                    # the move stands, but the seat would show the position before it, and
                    # the next change may wait for this very seat: its sockets close (1011)
                    # so that its page joins again and loads the table as stored
                    log.warning("no view for seat %d of %s: %s", seat, table.game_id, err.reason)
                    await asyncio.gather(*(self.drop(ws) for ws in list(sockets)))
                    continue
                if self._latest.get(table.game_id, -1) > table.seq:
                    return  # a newer change is on its way: never send an older one after it
                await asyncio.gather(*(self.send(ws, message) for ws in list(sockets)))
