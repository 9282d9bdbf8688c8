"""Malformed messages to the host: a seat's is refused as a bad request and its socket goes
on; one before a seat's token closes the socket 4403; a table's body is a 400. None takes
a handler down (an HTTP 500, or a socket dropped without a close frame)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.host.hosts import Host, Player, hosting
from tests.service.servers import Running

DEEP = "[" * 100_000 + "]" * 100_000  # past Python's recursion limit in json.loads

MESSAGES: dict[str, str | bytes] = {
    "seq Infinity": '{"type": "move", "move": "draw", "seq": Infinity}',
    "seq 1e400": '{"type": "move", "move": "draw", "seq": 1e400}',
    "deep nesting": DEEP,
    "binary frame": b"\x00\x01binary",
}

BODIES = {
    "players Infinity": '{"variant": "classic", "players": Infinity}',
    "players 1e400": '{"variant": "classic", "players": 1e400}',
    "deep nesting": DEEP,
}


@pytest.fixture(scope="module")
def seat(rules: Running, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Host, str]]:
    """A host with a table of two people: the host and seat 0's join link."""
    db: Path = tmp_path_factory.mktemp("host") / "tables.db"
    with hosting(db, rules.grpc_target) as host:
        yield host, host.create("classic", 2, {})["seats"][0]["link"]


@pytest.mark.parametrize("junk", MESSAGES.values(), ids=MESSAGES)
def test_a_malformed_message_is_a_bad_request(seat: tuple[Host, str], junk: str | bytes) -> None:
    host, link = seat
    player = Player(host, link)
    player.wait(lambda s: s["type"] == "state")
    player.ws.send(junk)
    player.wait(lambda s: bool(player.refusals))
    assert player.refusals[-1]["reason"] == "BAD_REQUEST"
    # the socket is still the seat's: its next message is answered
    player.send(type="next", seq=player.state["seq"])
    player.wait(lambda s: len(player.refusals) == 2)
    assert player.refusals[-1]["reason"] == "HAND_NOT_OVER"  # the rules service's own
    player.close()


@pytest.mark.parametrize("hello", [DEEP, b'{"token": "-"}'], ids=["deep nesting", "binary"])
def test_a_malformed_hello_closes_the_socket(seat: tuple[Host, str], hello: str | bytes) -> None:
    host, link = seat
    path = link.partition("#")[0].removeprefix("/play")
    with connect(f"ws://127.0.0.1:{host.port}/ws{path}") as ws:
        ws.send(hello)
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=5.0)
        assert ws.close_code == 4403


@pytest.mark.parametrize("body", BODIES.values(), ids=BODIES)
def test_a_malformed_table_is_a_bad_request(seat: tuple[Host, str], body: str) -> None:
    host, _ = seat
    answer = httpx.post(f"{host.base}/api/tables", content=body, timeout=20,
                        headers={"Content-Type": "application/json"})
    assert answer.status_code == 400, answer.text
    assert answer.json()["reason"] == "BAD_REQUEST"
