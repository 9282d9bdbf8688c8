"""The players' connections and what each is sent: its own seat's view (asked with its own
seat token), the public move lines, and the table's public facts. Never the snapshot, the
host token, another seat's token, the seed or the host's record."""

from __future__ import annotations

import asyncio
import logging
import re
from collections import defaultdict, deque
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
SEND_SECONDS = 5.0  # the longest a socket may take to take in one message before it closes
MAX_WAITING = 16  # messages waiting for a socket before its reader reads no more of it


def public_log(record: str) -> list[str]:
    """The move lines of the host's record (the last :data:`LOG_LINES`): the moves as
    everyone at the table saw them played."""
    lines = [line.strip() for line in record.splitlines()]
    return [line for line in lines if PUBLIC_LINE.match(line)][-LOG_LINES:]


def status(table: Table) -> dict[str, Any]:
    """What anyone may know of a table (the index page, the tests' polling)."""
    return {"game_id": table.game_id, "variant": table.variant, "players": table.players,
            "seq": table.seq, "awaited": table.awaited, "hand_over": table.hand_over,
            "game_over": table.game_over, "bots": {str(s): v for s, v in table.bots.items()},
            "options": table.options}


class Outbox:
    """One socket's messages, sent in order by a task of its own: a socket that stops
    reading (a frozen tab, a mobile link gone dead: its TCP window full) holds up no other
    socket, nor the move or the bot whose change is pushed. A state still waiting gives
    way to a newer one (each is the seat's whole position); a message the socket does not
    take within :data:`SEND_SECONDS` closes it (:meth:`close`)."""

    def __init__(self, ws: WebSocket, who: str) -> None:
        self.ws = ws
        self.who = who  # for the log: the seat and table
        self.closing = False
        self._waiting: deque[dict[str, Any]] = deque()
        self._task: asyncio.Task[None] | None = None
        self._room = asyncio.Event()  # set while fewer than MAX_WAITING wait (room())
        self._room.set()

    def put(self, message: dict[str, Any]) -> None:
        """Send ``message`` after those before it (none once the socket is closing)."""
        if self.closing:
            return
        if message["type"] == "state":
            self._waiting = deque(m for m in self._waiting if m["type"] != "state")
        self._waiting.append(message)
        self._fit()
        self._wake()

    def close(self) -> None:
        """Close the socket with 1011 (join again) after the message being sent; those
        still waiting are dropped: the page joins again and loads the table as stored. The
        close frame waits for the socket to take it, in this task alone."""
        if not self.closing:
            self.closing = True
            self._waiting.clear()
            self._fit()
            self._wake()

    async def room(self) -> None:
        """Wait while :data:`MAX_WAITING` messages wait for the socket, till it takes them or
        closes: its reader reads no more of a client that does not read, whose every message
        could put one more (a refusal), as when the reader waited for each send itself."""
        await self._room.wait()

    def _fit(self) -> None:
        if self.closing or len(self._waiting) < MAX_WAITING:
            self._room.set()
        else:
            self._room.clear()

    def _wake(self) -> None:
        # no await lies between the task's last look at the queue and its end
        if self._task is None:
            self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        try:
            while self._waiting:
                message = self._waiting.popleft()
                self._fit()
                await self._send(message)
            if self.closing:
                try:
                    await self.ws.close(1011, REJOIN)
                except Exception:  # a closed socket
                    log.debug("close of a closed socket", exc_info=True)
        finally:
            self._task = None

    async def _send(self, message: dict[str, Any]) -> None:
        try:
            await asyncio.wait_for(self.ws.send_json(message), SEND_SECONDS)
        except TimeoutError:
            log.warning("%s took no message in %.1f s: its socket closes", self.who,
                        SEND_SECONDS)
            self.close()
        except Exception:  # a closed socket: its reader removes it
            log.debug("send to a closed socket", exc_info=True)


class Players:
    """The open sockets per table and seat, each with its :class:`Outbox`; :meth:`push`
    sends each its seat's state."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self._sockets: dict[str, dict[int, set[Outbox]]] = defaultdict(
            lambda: defaultdict(set))
        # the newest seq being pushed, per table with a socket open (both dicts forget a
        # table when its last socket leaves: a long-running host holds only live tables)
        self._latest: dict[str, int] = {}

    def join(self, game_id: str, seat: int, ws: WebSocket) -> Outbox:
        """Push ``seat``'s states to ``ws`` from now on; its outbox, for every message."""
        outbox = Outbox(ws, f"seat {seat} of {game_id}")
        self._sockets[game_id][seat].add(outbox)
        return outbox

    def leave(self, game_id: str, seat: int, outbox: Outbox) -> None:
        seats = self._sockets.get(game_id)
        if seats is not None:
            seats[seat].discard(outbox)
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

    async def greet(self, outbox: Outbox, table: Table, seat: int) -> None:
        """Send a seat that just joined its state. ``table`` is loaded after :meth:`join`,
        so a change committed while the seat's token was checked is not missed (its push
        went to the sockets then open), and every later one is pushed to ``outbox``; the
        state is skipped if a newer one is already on its way."""
        message = await self.message(table, seat)
        if self._latest.get(table.game_id, -1) <= table.seq:
            outbox.put(message)

    async def push(self, table: Table) -> None:
        """Send every connected seat of ``table`` its own state: the views are asked for
        all seats at once, and each socket's outbox sends it, so the caller (a move's
        reader, a bot) waits on the rules service alone, never on a socket."""
        seats = self._sockets.get(table.game_id)
        if seats is None:
            return  # no socket open: a seat that joins later loads the table itself
        self._latest[table.game_id] = max(self._latest.get(table.game_id, -1), table.seq)
        await asyncio.gather(*(self._push_seat(table, seat, outboxes)
                               for seat, outboxes in list(seats.items())))

    async def _push_seat(self, table: Table, seat: int, outboxes: set[Outbox]) -> None:
        live = [outbox for outbox in outboxes if not outbox.closing]
        if not live:
            return  # no socket, or only closing ones: no view to ask for
        try:
            message = await self.message(table, seat)
        except CanastaError as err:
            # the move stands, but the seat would show the position before it, and the
            # next change may wait for this very seat: its sockets close (1011) so that
            # its page joins again and loads the table as stored
            log.warning("no view for seat %d of %s: %s", seat, table.game_id, err.reason)
            for outbox in live:
                outbox.close()
            return
        # every put checks this with no await before it, and a push raises _latest before
        # its first await: a socket is never put an older state after a newer one
        if self._latest.get(table.game_id, -1) > table.seq:
            return  # a newer change is on its way: never send an older one after it
        for outbox in live:
            outbox.put(message)
