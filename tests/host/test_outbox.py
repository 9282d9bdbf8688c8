"""The reference host's per-socket outbox (examples/host/players.py): what a socket that is
slow to read is sent once it reads again."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from starlette.websockets import WebSocket

from examples.host.players import Outbox


class Held:
    """A socket whose sends wait until :attr:`go` is set, noting what it was sent."""

    def __init__(self) -> None:
        self.go = asyncio.Event()
        self.sent: list[dict[str, Any]] = []

    async def send_json(self, message: dict[str, Any]) -> None:
        await self.go.wait()
        self.sent.append(message)


def test_a_waiting_state_gives_way_to_a_newer_one_and_refusals_keep_their_order() -> None:
    """Each state is the seat's whole position: of the states queued behind a send, only
    the newest is sent; a refusal is never dropped, and nothing is reordered."""

    async def scene() -> list[dict[str, Any]]:
        ws = Held()
        outbox = Outbox(cast(WebSocket, ws), "seat 0 of a test table")
        outbox.put({"type": "state", "seq": 1})  # being sent: the socket does not read
        await asyncio.sleep(0)
        outbox.put({"type": "refused", "reason": "A"})
        outbox.put({"type": "state", "seq": 2})
        outbox.put({"type": "refused", "reason": "B"})
        outbox.put({"type": "state", "seq": 3})
        ws.go.set()  # it reads again
        for _ in range(50):
            if len(ws.sent) == 4:
                break
            await asyncio.sleep(0.01)
        return ws.sent

    assert asyncio.run(scene()) == [
        {"type": "state", "seq": 1}, {"type": "refused", "reason": "A"},
        {"type": "refused", "reason": "B"}, {"type": "state", "seq": 3}]
