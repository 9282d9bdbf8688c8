"""Malformed messages to the host: a seat's is refused as a bad request and its socket goes
on; one before a seat's token closes the socket 4403; a table's body is a 400, or a 413
past its limit. None takes a handler down (an HTTP 500, or a socket dropped without a close
frame), and every refusal names its reason, the rules service away too."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import httpx
import pytest
from canasta_client import AsyncCanastaClient, UnavailableError
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.host.hosts import Host, Player, hosting, stored
from tests.service.servers import Running

DEEP = "[" * 100_000 + "]" * 100_000  # past Python's recursion limit in json.loads

MESSAGES: dict[str, str | bytes] = {
    "seq Infinity": '{"type": "move", "move": "draw", "seq": Infinity}',
    "seq 1e400": '{"type": "move", "move": "draw", "seq": 1e400}',
    "deep nesting": DEEP,
    "binary frame": b"\x00\x01binary",
    # int() would read these as a seq (0.9 as 0, true as 1), str() a list as a move
    "seq 0.9": '{"type": "move", "move": "x", "seq": 0.9}',
    "seq a string": '{"type": "move", "move": "x", "seq": "0"}',
    "seq true": '{"type": "move", "move": "x", "seq": true}',
    "move a list": '{"type": "move", "move": ["draw"], "seq": 0}',
    "move null": '{"type": "move", "move": null, "seq": 0}',
    "move a lone surrogate": '{"type": "move", "move": "\\ud800", "seq": 0}',
}

BODIES = {
    "players Infinity": '{"variant": "classic", "players": Infinity}',
    "players 1e400": '{"variant": "classic", "players": 1e400}',
    "deep nesting": DEEP,
    "players 2.5": '{"variant": "classic", "players": 2.5}',
    "players a string": '{"variant": "classic", "players": "2"}',
    "variant null": '{"variant": null, "players": 2}',
    # an option's value is text, a boolean, an integer (str() wrote None, [1], 2.5, inf)
    "option null": '{"variant": "classic", "players": 2, "options": {"target_score": null}}',
    "option a list": '{"variant": "classic", "players": 2, "options": {"target_score": [1]}}',
    "option an object": '{"variant": "classic", "players": 2, "options": {"p3_mode": {}}}',
    "option 2.5": '{"variant": "classic", "players": 2, "options": {"target_score": 2.5}}',
    "option 1e400": '{"variant": "classic", "players": 2, "options": {"target_score": 1e400}}',
    # dict() took a list of pairs for an object
    "options pairs": '{"variant": "classic", "players": 2, "options": [["target_score", "9"]]}',
    "bots pairs": '{"variant": "classic", "players": 2, "bots": [["1", "greedy"]]}',
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


def test_every_refusal_has_the_shape_the_readme_names(seat: tuple[Host, str]) -> None:
    """A seat's refusal is ``{type, reason, message, rule}`` (examples/host/README.md) whoever
    refused: the host's own (BAD_REQUEST, SNAPSHOT_STALE) had no ``rule`` at all, the
    service's (HAND_NOT_OVER) had one, so a client typed on the README's shape read it as
    undefined."""
    host, link = seat
    player = Player(host, link)
    seq = player.wait(lambda s: s["type"] == "state")["seq"]
    for message in ("not json", json.dumps({"type": "next", "seq": seq + 1}),
                    json.dumps({"type": "next", "seq": seq})):
        player.ws.send(message)
    player.wait(lambda s: len(player.refusals) == 3)
    assert [r["reason"] for r in player.refusals] == [
        "BAD_REQUEST", "SNAPSHOT_STALE", "HAND_NOT_OVER"]
    assert all(set(r) == {"type", "reason", "message", "rule"} for r in player.refusals), \
        player.refusals
    assert [r["rule"] for r in player.refusals[:2]] == ["", ""]
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


class Recording:
    """The host's client of the rules service, keeping the options of each Deal it sends."""

    def __init__(self, target: str) -> None:
        self.inner = AsyncCanastaClient(target, timeout=20.0)
        self.options: list[dict[str, str]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def deal(self, *args: Any, **kwargs: Any) -> Any:
        self.options.append(dict(kwargs["options"]))
        return await self.inner.deal(*args, **kwargs)


def test_a_tables_options_reach_the_service_as_text(rules: Running, tmp_path: Path) -> None:
    """Options go to the rules service as the text it reads (docs/api.md): a JSON boolean
    as true or false (str() wrote True), an integer in decimal, an integral float as an
    integer (str() wrote 2.0, which the service refuses), a string as it is."""
    made: list[Recording] = []

    def connect() -> AsyncCanastaClient:
        made.append(Recording(rules.grpc_target))
        return made[-1]  # type: ignore[return-value]

    db = tmp_path / "tables.db"
    with hosting(db, rules.grpc_target, connect) as host:
        sent = {"upcard_black_three_stops": True, "wilds_not_exceed_naturals": False,
                "target_score": 1500, "p2_draw_count": 2.0, "p3_mode": "basic"}
        created = host.create("classic", 2, {}, sent)
        assert made[0].options == [{
            "upcard_black_three_stops": "true", "wilds_not_exceed_naturals": "false",
            "target_score": "1500", "p2_draw_count": "2", "p3_mode": "basic"}]
        # the record names the options that differ from the defaults
        record = stored(db, created["game_id"]).record
        assert "\noptions: target_score=1500,upcard_black_three_stops=true\n" in record


def test_a_huge_table_body_is_refused(seat: tuple[Host, str]) -> None:
    """A body past the host's limit is a 413, however well formed: never read whole."""
    host, _ = seat
    body = json.dumps({"variant": "classic", "players": 2, "pad": "x" * 1_000_000})
    answer = httpx.post(f"{host.base}/api/tables", content=body, timeout=20,
                        headers={"Content-Type": "application/json"})
    assert answer.status_code == 413, answer.text
    assert answer.json()["reason"] == "REQUEST_TOO_LARGE"


def test_a_refusal_without_a_reason_names_its_code(seat: tuple[Host, str]) -> None:
    """A move too large for the rules service's gRPC limit is refused by gRPC itself,
    with no ErrorInfo: the seat is still told a reason, the status code's name."""
    host, link = seat
    player = Player(host, link)
    player.wait(lambda s: s["type"] == "state")
    player.play("x" * 300_000)
    player.wait(lambda s: bool(player.refusals))
    assert player.refusals[-1]["reason"] == "RESOURCE_EXHAUSTED"
    player.close()


def test_the_rules_service_away(tmp_path: Path) -> None:
    """With no rules service, the pages' calls are a 502 naming the reason, never a 500
    nor a 400 with an empty reason, nor gRPC's text naming where the service listens; the
    message names the code no more, as a page shows it beside the reason (the index page
    said "UNAVAILABLE: the rules service refused the call (UNAVAILABLE)")."""
    with socket.socket() as closed:  # a port that refuses connections
        closed.bind(("127.0.0.1", 0))
        port = str(closed.getsockname()[1])
        target = f"127.0.0.1:{port}"
        with hosting(tmp_path / "tables.db", target,
                     lambda: AsyncCanastaClient(target, timeout=5.0)) as host:
            for answer in (httpx.get(f"{host.base}/api/variants", timeout=20),
                           httpx.post(f"{host.base}/api/tables", timeout=20,
                                      json={"variant": "classic", "players": 2})):
                assert answer.status_code == 502, answer.text
                assert answer.json() == {"reason": "UNAVAILABLE",
                                         "message": "the rules service refused the call"}
                assert port not in answer.text and "127.0.0.1" not in answer.text, answer.text


class AwayAtMoves:
    """The app's client, whose ``apply_move`` fails as gRPC's own UNAVAILABLE does (no
    reason; its text names the service's address); every other call is the real one's."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.inner: AsyncCanastaClient | None = None

    def connect(self) -> Any:
        self.inner = AsyncCanastaClient(self.target, timeout=20.0)
        return self

    def __getattr__(self, name: str) -> Any:
        if name == "apply_move":
            async def away(*args: Any, **kwargs: Any) -> Any:
                raise UnavailableError(grpc.StatusCode.UNAVAILABLE, INTERNAL_TEXT)
            return away
        return getattr(self.inner, name)


INTERNAL_TEXT = ("failed to connect to all addresses; last error: UNKNOWN: ipv4:10.9.8.7:50051:"
                 " Failed to connect to remote host: Connection refused")


def test_the_rules_services_address_is_not_told(rules: Running, tmp_path: Path) -> None:
    """gRPC's own refusal (no reason) names where the rules service listens: a seat is
    told its status code, never that text (the pages' calls: test_the_rules_service_away),
    and once: the seat page shows the message with the reason after it, and read "the rules
    service refused the call (UNAVAILABLE) (UNAVAILABLE)"."""
    client = AwayAtMoves(rules.grpc_target)
    with hosting(tmp_path / "tables.db", rules.grpc_target, client.connect) as host:
        created = host.create("classic", 2, {})
        player = Player(host, created["seats"][0]["link"])
        player.wait(lambda s: s["type"] == "state")
        player.play("draw")
        player.wait(lambda s: bool(player.refusals))
        assert player.refusals[-1] == {"type": "refused", "reason": "UNAVAILABLE",
                                       "message": "the rules service refused the call",
                                       "rule": ""}
        assert "10.9.8.7" not in player.raw[-1], player.raw[-1]
        player.close()
