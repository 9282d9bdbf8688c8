"""Every RPC over real sockets, on gRPC and on REST, with the answers a host relies on."""

from __future__ import annotations

import asyncio
import base64
import json
import random
import re
import socket
from typing import Any

import grpc
import httpx
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from engine.cards import CODES
from engine.deck import ordered_deck
from engine.game import rules_for
from engine.notation import import_position
from service.api.pb import api, api_grpc, game
from service.server import http_socket
from tests.service.helpers import auth, call_grpc, call_rest, ok
from tests.service.servers import Running

TRANSPORTS = ["grpc", "rest"]


@pytest.fixture(params=TRANSPORTS)
def call(request: pytest.FixtureRequest, stub: api_grpc.CanastaEngineStub, http: httpx.Client):
    if request.param == "grpc":
        return lambda method, req=None, lang=None, token=None: ok(
            call_grpc(stub, method, req, lang, token))
    return lambda method, req=None, lang=None, token=None: ok(
        call_rest(http, method, req, lang, token=token))


def _deal(call, players: int = 4, seed: int = 7, **kw) -> api.DealResponse:
    return call("Deal", api.DealRequest(variant="classic", players=players, seed=seed, **kw))


def test_list_variants(call) -> None:
    resp = call("ListVariants", api.ListVariantsRequest())
    classic = {v.id: v for v in resp.variants}["classic"]
    assert (classic.name, classic.min_players, classic.max_players) == ("Classic Canasta", 2, 6)
    options = {o.name: o for o in classic.options}
    assert options["target_score"].type == game.OPTION_TYPE_INT
    assert not options["target_score"].HasField("default_value")  # depends on the player count
    assert options["p3_mode"].choices == ["basic", "cutthroat"]
    assert options["penalties"].default_value == "false"
    # an integer option's range (engine/options.py, INT_OPTION_MAX); none for the others
    assert (options["target_score"].minimum, options["target_score"].maximum) == (1, 1_000_000)
    assert options["penalties"].maximum == 0 and options["p3_mode"].maximum == 0
    # an integer option that takes words as well lists them, so a host's field knows (no
    # other integer option lists any)
    may_i = {o.name: o for v in resp.variants if v.id == "may_i" for o in v.options}
    assert may_i["max_buys_per_deal"].type == game.OPTION_TYPE_INT
    assert may_i["max_buys_per_deal"].choices == ["none", "unlimited"]
    assert options["target_score"].choices == []
    ru = call("ListVariants", api.ListVariantsRequest(), "ru")
    assert ru.variants[0].name == "Классическая канаста"


def test_deal_returns_snapshot_header_views_and_events(call) -> None:
    resp = _deal(call)
    h = resp.header
    assert (h.format_version, h.variant, h.seq, h.imported) == (2, "classic", 0, False)
    assert len(h.game_id) == 36 and h.key_id == "test-1"
    assert [v.seat for v in resp.views] == [0, 1, 2, 3]
    assert all(len(v.hand) == 11 for v in resp.views)
    assert resp.views[0].legal_moves and not resp.views[1].legal_moves  # only the awaited seat
    assert all(sorted(v.hand_sizes) == [11, 11, 11, 11] for v in resp.views)
    assert resp.events[0].type == game.EVENT_TYPE_HAND_DEALT
    assert resp.events[-1].type == game.EVENT_TYPE_TURN_STARTED
    assert len(resp.snapshot) <= 1024


def test_deal_with_a_stacked_deck_and_one_view(call) -> None:
    deck = [CODES[c] for c in ordered_deck(rules_for("classic", 2))]
    resp = _deal(call, players=2, deck=deck, view_seat=1)
    assert [v.seat for v in resp.views] == [1]
    again = _deal(call, players=2, seed=99, deck=deck, view_seat=1)
    assert again.views[0].hand == resp.views[0].hand  # the deck, not the seed, decides


def test_legal_moves_then_apply_move(call) -> None:
    deal = _deal(call)
    host = deal.host_token
    legal = call("LegalMoves", api.LegalMovesRequest(snapshot=deal.snapshot), token=host)
    assert legal.seat == 0 and legal.phase == "draw"
    texts = [m.text for m in legal.moves]
    assert "draw" in texts
    draw = legal.moves[texts.index("draw")]
    assert draw.WhichOneof("kind") == "draw"
    resp = call("ApplyMove", api.ApplyMoveRequest(snapshot=deal.snapshot, move=draw,
                                                  expected_seq=0, seat=0), token=host)
    assert resp.header.seq == 1 and resp.header.game_id == deal.header.game_id
    assert (resp.seat, resp.awaited, resp.hand_over, resp.game_over) == (0, 0, False, False)
    assert resp.move.text == "draw"
    kinds = [e.type for e in resp.events]
    assert kinds[:2] == [game.EVENT_TYPE_MOVE_PLAYED, game.EVENT_TYPE_CARDS_DRAWN]
    assert resp.views[0].phase == "meld" and len(resp.views) == 4
    # the move may come as text only, and the answer carries the typed, canonical form
    discard = next(t for t in resp.views[0].legal_moves if t.startswith("discard"))
    after = call("ApplyMove", api.ApplyMoveRequest(snapshot=resp.snapshot,
                                                   move=game.Move(text=discard.lower())),
                 token=host)
    assert after.move.text == discard and after.move.discard.card == discard.split()[1]
    assert after.awaited == 1 and after.header.seq == 2


def test_score_hand_get_view_export_import(call) -> None:
    deal = _deal(call, seed=3)
    host = deal.host_token
    score = call("ScoreHand", api.ScoreHandRequest(snapshot=deal.snapshot), token=host)
    assert [s.team for s in score.sides] == [0, 1]
    assert list(score.sides[0].seats) == [0, 2]
    assert not score.hand_over and score.went_out == -1 and score.winner == -1
    for s in score.sides:
        b = s.breakdown
        assert s.total == (b.base + b.canasta_bonus + b.going_out + b.red_three_points
                           - b.in_hand - b.penalties)
    views = call("GetView", api.GetViewRequest(snapshot=deal.snapshot, seat=2), token=host)
    assert [v.seat for v in views.views] == [2] and views.views[0].hand == deal.views[2].hand
    spectator = call("GetView", api.GetViewRequest(snapshot=deal.snapshot, seat=-1), token=host)
    assert spectator.views[0].hand == [] and spectator.views[0].legal_moves == []
    exported = call("ExportPosition", api.ExportPositionRequest(snapshot=deal.snapshot),
                    token=host)
    assert exported.position.startswith("canasta-position 1\n")
    assert exported.header.game_id == deal.header.game_id
    imported = call("ImportPosition", api.ImportPositionRequest(position=exported.position))
    assert imported.header.imported and imported.header.seq == 0
    assert imported.host_token and imported.host_token != host
    assert len(imported.seat_tokens) == 4
    assert imported.header.game_id != deal.header.game_id
    assert [v.hand for v in imported.views] == [v.hand for v in deal.views]
    again = call("ExportPosition", api.ExportPositionRequest(snapshot=imported.snapshot),
                 token=imported.host_token)
    assert again.position == exported.position
    assert import_position(again.position) == import_position(exported.position)


def test_a_position_with_a_seed_beyond_64_bits_is_played_on(call) -> None:
    """A position text may name a seed beyond 64 bits (no Deal can): ImportPosition seals
    it, and the game is played on from its snapshot with that very seed (the codec writes
    such a state as json does, engine/codec.py)."""
    deal = _deal(call, players=2, seed=5)
    position = call("ExportPosition", api.ExportPositionRequest(snapshot=deal.snapshot),
                    token=deal.host_token).position
    wide = position.replace("seed: 5\n", "seed: 18446744073709551616\n")
    assert wide != position
    imported = call("ImportPosition", api.ImportPositionRequest(position=wide))
    host = imported.host_token
    legal = call("LegalMoves", api.LegalMovesRequest(snapshot=imported.snapshot), token=host)
    moved = call("ApplyMove", api.ApplyMoveRequest(snapshot=imported.snapshot,
                                                   move=legal.moves[0]), token=host)
    again = call("ExportPosition", api.ExportPositionRequest(snapshot=moved.snapshot), token=host)
    assert "seed: 18446744073709551616\n" in again.position


def _play_out_hand(call, snapshot: bytes, host: str) -> api.ApplyMoveResponse:
    """Draw-and-discard until the hand ends (the stock runs out)."""
    resp = None
    for _ in range(600):
        legal = call("LegalMoves", api.LegalMovesRequest(snapshot=snapshot), token=host)
        texts = [m.text for m in legal.moves]
        pick = next((t for t in ("draw", "decline", "end") if t in texts), None)
        if pick is None:
            pick = next((t for t in texts if t.startswith(("discard", "out", "no", "yes"))),
                        texts[0])
        resp = call("ApplyMove", api.ApplyMoveRequest(snapshot=snapshot,
                                                      move=game.Move(text=pick)), token=host)
        snapshot = resp.snapshot
        if resp.hand_over:
            return resp
    raise AssertionError("the hand did not end")


def test_next_deal_after_a_hand(call) -> None:
    deal = _deal(call, players=2, seed=5)
    host = deal.host_token
    over = _play_out_hand(call, deal.snapshot, host)
    assert any(e.type == game.EVENT_TYPE_HAND_OVER for e in over.events)
    assert over.awaited == -1 and over.views[0].result
    score = call("ScoreHand", api.ScoreHandRequest(snapshot=over.snapshot), token=host)
    assert score.hand_over and len(score.sides) == 2
    nxt = call("NextDeal", api.NextDealRequest(snapshot=over.snapshot,
                                               expected_seq=over.header.seq,
                                               expected_game_id=deal.header.game_id),
               token=host)
    assert nxt.header.seq == over.header.seq + 1
    assert nxt.header.game_id == deal.header.game_id
    # the same game keeps its credentials
    assert (nxt.host_token, nxt.seat_tokens) == (host, deal.seat_tokens)
    assert nxt.views[0].hand_no == 1
    assert [v.sides[0].score for v in nxt.views] == [score.sides[0].cumulative] * 2


def test_rest_json_is_canonical_proto3(server: Running, http: httpx.Client) -> None:
    body = {"variant": "classic", "players": 4, "seed": "11", "viewSeat": 0}
    resp = http.post("/v1/deal", json=body)
    assert resp.status_code == 200 and resp.headers["content-type"] == "application/json"
    data = resp.json()
    assert set(data) == {"snapshot", "header", "views", "events", "hostToken", "seatTokens"}
    bearer = {"authorization": f"Bearer {data['hostToken']}"}
    assert data["header"]["seq"] == "0"  # uint64 as a string
    snapshot = data["snapshot"]
    assert base64.b64decode(snapshot)[:2] == b"CS"
    legal = http.post("/v1/legal-moves", json={"snapshot": snapshot}, headers=bearer).json()
    move = legal["moves"][0]
    assert set(move) >= {"text"} and any(k in move for k in ("draw", "ask"))
    applied = http.post("/v1/apply-move", json={"snapshot": snapshot, "move": move,
                                                "expectedSeq": "0"}, headers=bearer).json()
    assert applied["handOver"] is False and applied["header"]["seq"] == "1"
    snake = http.post("/v1/legal-moves", content=json.dumps({"snapshot": snapshot}),
                      headers={**bearer, "content-type": "application/json"})
    assert snake.status_code == 200
    rid = http.get("/v1/variants", headers={"x-request-id": "req-42"})
    assert rid.headers["x-request-id"] == "req-42"


def test_keep_alive_answers_are_not_delayed() -> None:
    """A listening socket made without IPPROTO_TCP gets no TCP_NODELAY from asyncio on its
    accepted connections, and each keep-alive answer then waits ~40 ms for a delayed ACK:
    the server's socket is made so that asyncio sets it (checked on a connection)."""
    async def accepted_nodelay() -> int:
        got: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            conn = writer.get_extra_info("socket")
            got.set_result(conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(handle, sock=http_socket("127.0.0.1", 0))
        port = server.sockets[0].getsockname()[1]
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            return await asyncio.wait_for(got, 10)
        finally:
            writer.close()
            server.close()

    assert asyncio.run(accepted_nodelay()) != 0


LABELLED = re.compile(r"^(add (W|\S*[:#])|take .*\bon |merge |down |layoff )")


@pytest.mark.parametrize(("variant", "seed", "wanted"), [
    ("samba", 4, {"add", "take", "merge"}),
    ("may_i", 4, {"down", "layoff"}),
])
def test_labelled_moves_apply_by_their_typed_form_alone(
        stub: api_grpc.CanastaEngineStub, variant: str, seed: int, wanted: set[str]) -> None:
    """Over gRPC, every move is sent as its typed arm with no text: moves that name a
    meld by its label (``add S:5-9 ...``, ``take ... on 9#2``, ``merge K K#2``) and the May I?
    moves (``down ...``, ``layoff 2:1 9D``) too. The answer names the listed move, and the
    text form of a labelled move applied to the same snapshot gives the same answer."""
    rng = random.Random(seed)
    deal = stub.Deal(api.DealRequest(variant=variant, players=4, seed=seed), timeout=30)
    snapshot, applied = deal.snapshot, set()
    host = auth(deal.host_token)
    for _ in range(400):
        legal = stub.LegalMoves(api.LegalMovesRequest(snapshot=snapshot), timeout=30,
                                metadata=host)
        if legal.seat < 0:  # the hand is over
            snapshot = stub.NextDeal(api.NextDealRequest(snapshot=snapshot), timeout=30,
                                     metadata=host).snapshot
            continue
        texts = [m.text for m in legal.moves]
        labelled = [t for t in texts if LABELLED.match(t)]
        melds = [t for t in texts if t.startswith(("meld", "add", "take", "out"))]
        if labelled:
            text = rng.choice(labelled)
        elif melds and rng.random() < 0.8:
            text = rng.choice(melds)
        else:
            text = rng.choice([t for t in texts if t != "undo"] or texts)
        listed = legal.moves[texts.index(text)]
        assert listed.WhichOneof("kind") is not None, text
        typed = game.Move()
        typed.CopyFrom(listed)
        typed.ClearField("text")
        resp = stub.ApplyMove(api.ApplyMoveRequest(snapshot=snapshot, move=typed), timeout=30,
                              metadata=host)
        assert resp.move == listed  # the same move, canonical text and typed form
        if labelled:
            by_text = stub.ApplyMove(api.ApplyMoveRequest(snapshot=snapshot,
                                                          move=game.Move(text=text)), timeout=30,
                                    metadata=host)
            assert (by_text.move, list(by_text.views), list(by_text.events)) == (
                resp.move, list(resp.views), list(resp.events))
            applied.add(text.split()[0])
        snapshot = resp.snapshot
        if wanted <= applied:
            return
    raise AssertionError(f"{variant} seed {seed}: applied {sorted(applied)}, not all of "
                         f"{sorted(wanted)} (pick another seed if the engine's deals changed)")


def _locale(details: list[dict[str, Any]]) -> str:
    return next(d["locale"] for d in details if d["@type"].endswith("LocalizedMessage"))


def test_a_repeated_header_counts_by_its_first_value(stub: api_grpc.CanastaEngineStub,
                                                    http: httpx.Client) -> None:
    """Of a repeated ``x-request-id``, ``accept-language`` or ``content-type``, both faces
    take the first value, as the REST limits layer and Starlette's own handlers read them:
    the id an answer echoes is the one its log line names (docs/api.md, *Request ids*)."""
    twice = [("x-request-id", "first-id"), ("x-request-id", "second-id"),
             ("accept-language", "ru"), ("accept-language", "en")]
    bad = api.DealRequest(variant="no-such-game", players=4)
    with pytest.raises(grpc.RpcError) as caught:
        stub.Deal(bad, metadata=tuple(twice), timeout=30)
    trailers = dict(caught.value.trailing_metadata() or ())
    assert trailers["x-request-id"] == "first-id"
    status = rpc_status.from_call(caught.value)
    assert status is not None
    localized = [d for d in status.details if d.Is(error_details_pb2.LocalizedMessage.DESCRIPTOR)]
    message = error_details_pb2.LocalizedMessage()
    localized[0].Unpack(message)
    assert message.locale == "ru"

    answer = http.post("/v1/deal", json={"variant": "no-such-game", "players": 4},
                       headers=twice)
    assert answer.status_code == 400
    assert answer.headers.get_list("x-request-id") == ["first-id"]
    assert _locale(answer.json()["error"]["details"]) == "ru"
    body = json.dumps({"variant": "classic", "players": 4, "seed": 1})
    first_json = http.post("/v1/deal", content=body, headers=[
        ("content-type", "application/json"), ("content-type", "text/plain")])
    assert first_json.status_code == 200
    first_text = http.post("/v1/deal", content=body, headers=[
        ("content-type", "text/plain"), ("content-type", "application/json")])
    assert first_text.status_code == 415


def test_a_request_id_too_long_is_replaced_by_one_made_up(stub: api_grpc.CanastaEngineStub,
                                                          http: httpx.Client) -> None:
    """docs/api.md, *Request ids*: an id of at most 128 printable characters is echoed, a
    longer one is replaced by one made up, on both faces (an SDK's ``request_id`` included)."""
    for given, kept in (("r" * 128, True), ("r" * 129, False)):
        _, call = stub.ListVariants.with_call(api.ListVariantsRequest(),
                                              metadata=(("x-request-id", given),), timeout=30)
        echoed = {"grpc": dict(call.trailing_metadata() or ())["x-request-id"],
                  "rest": http.get("/v1/variants", headers={"x-request-id": given})
                  .headers["x-request-id"]}
        for face, rid in echoed.items():
            assert (rid == given) is kept and rid, (face, len(given), rid)
