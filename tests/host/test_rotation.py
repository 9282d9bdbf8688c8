"""A key rotation under a live table (docs/security.md#keys-and-rotation: the ring k1, then
k2,k1, then k2): the host keeps the credentials NextDeal answers, so the table goes on once
k1 is dropped, and the player's join link (its k1 seat token) still opens its seat."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from canasta_client import AsyncCanastaClient
from websockets.exceptions import ConnectionClosed

from service.sealing.keys import KeyRing, new_key_entry
from tests.host.hosts import Host, Player, check_record, hosting, stored
from tests.host.test_play import play_out
from tests.service.servers import running

K1, K2 = new_key_entry("k1"), new_key_entry("k2")


class Rotating:
    """The host's client of the rules service that ``target`` names now: one address whose
    replicas restart with each step's key ring. Each target's client is made at its first
    call, on the host's event loop."""

    def __init__(self, target: str) -> None:
        self.target = target
        self._clients: dict[str, AsyncCanastaClient] = {}

    def __getattr__(self, name: str) -> Any:
        if self.target not in self._clients:
            self._clients[self.target] = AsyncCanastaClient(self.target, timeout=20.0)
        return getattr(self._clients[self.target], name)

    async def close(self) -> None:
        for client in self._clients.values():
            await client.close()


def refused(host: Host, game_id: str, seat: int, token: str) -> None:
    """``token`` opens no socket of ``seat``: closed 4403 before any message."""
    intruder = Player(host, f"/play/{game_id}/{seat}#{token}")
    with pytest.raises(ConnectionClosed):
        intruder.drain(5.0)
        intruder.ws.recv(timeout=5.0)
    assert intruder.raw == [] and intruder.ws.close_code == 4403


def test_a_table_lives_through_a_key_rotation(tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    with running(KeyRing.parse(K1)) as old, \
            running(KeyRing.parse(f"{K2},{K1}")) as rotated, \
            running(KeyRing.parse(K2)) as retired:
        rotating = Rotating(old.grpc_target)
        with hosting(db, retired.grpc_target, lambda: rotating) as host:  # type: ignore[arg-type,return-value]
            created = host.create("classic", 2, {1: "greedy"})
            game_id, link = created["game_id"], created["seats"][0]["link"]
            dealt = stored(db, game_id)
            # k2 seals, k1 still opens: the hand is played out, and the next one dealt
            rotating.target = rotated.grpc_target
            player = Player(host, link)
            play_out([player], host, db, game_id)
            over = stored(db, game_id)
            player.wait(lambda s: s["hand_over"])
            player.send(type="next", seq=over.seq)
            player.wait(lambda s: s["view"]["hand_no"] == 1)
            player.close()
            nexted = stored(db, game_id)
            # k1 dropped: the same link opens the seat, and the second hand is played out
            rotating.target = retired.grpc_target
            player = Player(host, link)
            player.wait(lambda s: s["type"] == "state")
            play_out([player], host, db, game_id)
            player.close()
            table = stored(db, game_id)
            assert table.hand_over and table.seq > nexted.seq + 10
            check_record(host.client, table)
            # the host keeps the credentials NextDeal answered, signed with k2
            assert (table.host_token, table.seat_tokens) != (dealt.host_token, dealt.seat_tokens)
            # the other seat's tokens, old and new, open no seat but their own
            refused(host, game_id, 0, dealt.seat_tokens[1])
            refused(host, game_id, 0, table.seat_tokens[1])
