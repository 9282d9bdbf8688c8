"""What an outsider (no seat) or a seated player may try at the host and must not get:
the host's memory for one huge frame, its store for an endless record, a table made by
another site's page in its visitor's browser."""

from __future__ import annotations

import asyncio
import json
import secrets
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from examples.host.tables import staging_refused
from tests.host.hosts import Player, hosting, stored
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


SIMPLE_TYPES = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; b=x"]


@pytest.mark.parametrize("kind", SIMPLE_TYPES)
def test_another_sites_page_creates_no_table(rules: Running, tmp_path: Path, kind: str) -> None:
    """A page of any site may POST a form to the host in its visitor's browser, with no
    preflight, in one of the three types a form sends: ``enctype="text/plain"`` writes a
    JSON body (a field named ``{"variant": ..., "x": "`` and valued ``"}``). The host read
    any body as JSON, so a site could make the browser of whoever runs ``make host`` on
    127.0.0.1 deal tables of expert bots that play whole games there. A table's body is
    ``application/json`` alone, which a page of another site cannot send unasked."""
    body = json.dumps({"variant": "classic", "players": 2, "bots": {"0": "expert",
                                                                    "1": "expert"}})
    with hosting(tmp_path / "tables.db", rules.grpc_target) as host:
        answer = httpx.post(f"{host.base}/api/tables", content=body, timeout=20,
                            headers={"Content-Type": kind, "Origin": "http://evil.example"})
        assert answer.status_code == 415, answer.text
        assert answer.json()["reason"] == "UNSUPPORTED_MEDIA_TYPE"
        assert asyncio.run(host.store.game_ids()) == []
        # the page's own type, a charset named or not, still deals
        answer = httpx.post(f"{host.base}/api/tables", timeout=20,
                            content=json.dumps({"variant": "classic", "players": 2}),
                            headers={"Content-Type": "Application/JSON; charset=utf-8"})
        assert answer.status_code == 201, answer.text


UNDOS = 30  # examples/host/tables.py's MAX_UNDOS


def test_a_seat_cannot_meld_and_undo_without_end(rules: Running, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """``undo`` takes back a meld of this turn, and the record keeps both lines (a replay
    must reach the snapshot's ply count, docs/records.md). One seat melding and undoing in
    a loop, 150 moves a second, took its table's record past 64 KiB in 45 s, the most an
    ``ExportRecord`` request holds: every seat's record download then answered 502
    ``REQUEST_TOO_LARGE`` and the host's whole record could not be exported, while every
    commit wrote the growing record whole. Past :data:`UNDOS` undos in a hand the host
    takes no more meld actions of that seat until the next hand; ``undo`` and the rest of
    its moves stay (a seat with staged melds short of its minimum is never stuck)."""
    monkeypatch.setattr(secrets, "randbits", lambda bits: 1)  # seat 0 draws, then may meld
    with hosting(tmp_path / "tables.db", rules.grpc_target) as host:
        created = host.create("classic", 2, {1: "greedy"})
        player = Player(host, created["seats"][0]["link"])
        player.wait(lambda s: s["type"] == "state")

        def play(move: str) -> None:
            seq, refusals = player.state["seq"], len(player.refusals)
            player.play(move)
            player.wait(lambda s: s["seq"] > seq or len(player.refusals) > refusals)

        play("draw")
        meld = next(m for m in player.state["view"]["legal_moves"] if m.startswith("meld"))
        for _ in range(UNDOS):
            play(meld)
            play("undo")
        assert player.refusals == []
        for move in (meld, meld.upper().replace("MELD", " Meld")):  # as the engine reads it
            play(move)
            assert [r["reason"] for r in player.refusals[-1:]] == ["UNDO_LIMIT"], player.state["seq"]
        discard = next(m for m in player.state["view"]["legal_moves"]
                       if m.startswith("discard"))
        play(discard)  # the game goes on
        assert len(player.refusals) == 2
        table = stored(tmp_path / "tables.db", created["game_id"])
        assert table.record.count("\n0 undo\n") == UNDOS
        assert f"\n0 {discard}\n" in table.record
        player.close()


def test_a_yes_to_may_i_go_out_lifts_the_undo_limit() -> None:
    """CL-OUT-5 (``permission_yes=strict``): after its partner's "yes" a seat must go out,
    melding what it holds; the host's undo limit would then leave it no move, so a "yes" to
    the seat's own question lifts it. Past the limit, any other last question keeps it."""
    undone = "".join("0 meld 9S 9H 9D\n0 undo\n" for _ in range(UNDOS))
    head = "canasta-record 1\nhand 0\n0 draw\n" + undone
    assert staging_refused(head, 0)
    assert not staging_refused(head + "0 ask\n2 yes\n", 0)
    assert staging_refused(head + "0 ask\n2 no\n", 0)
    assert staging_refused(head + "0 ask\n", 0)  # not answered yet
    assert staging_refused(head + "0 ask\n2 yes\n1 ask\n3 yes\n", 0)  # another's question
    assert not staging_refused(head.replace("0 undo", "1 undo"), 0)  # another's undos
    assert not staging_refused(head + "hand 1\n", 0)  # a new hand: none yet
