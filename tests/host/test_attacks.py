"""What an outsider (no seat) or a seated player may try at the host and must not get:
the host's memory for one huge frame, its store for an endless record, a table made by
another site's page in its visitor's browser."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.host.hosts import Player, hosting
from tests.service.servers import Running

HUGE = 1024 * 1024  # twice the host's limit of a message


def test_a_huge_frame_closes_the_socket_unread(rules: Running, tmp_path: Path) -> None:
    """uvicorn takes a WebSocket message of up to 16 MiB by default, read whole and parsed
    before the token is checked: ten clients with no seat, each sending one such frame of
    ``[1,1,...]``, took the host from 54 MB to a peak of 1 GB. Past the host's limit
    (examples/host/listener.py's ``MAX_MESSAGE``) the socket closes with 1009 (message too
    big), a hello's or a seat's move."""
    huge = json.dumps({"token": "x" * HUGE})
    with hosting(tmp_path / "tables.db", rules.grpc_target) as host:
        link = host.create("classic", 2, {})["seats"][0]["link"]
        path = link.partition("#")[0].removeprefix("/play")
        with connect(f"ws://127.0.0.1:{host.port}/ws{path}") as ws:
            ws.send(huge)
            with pytest.raises(ConnectionClosed):
                ws.recv(timeout=5.0)
            assert ws.close_code == 1009
        player = Player(host, link)  # a seat's huge message: the same
        player.wait(lambda s: s["type"] == "state")
        player.play("x" * HUGE)
        with pytest.raises(ConnectionClosed):
            player.drain(5.0)
            player.ws.recv(timeout=5.0)
        assert player.ws.close_code == 1009
        assert player.refusals == []
