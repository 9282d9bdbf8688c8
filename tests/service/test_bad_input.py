"""The bad-input matrix: each bad request gets the exact code and reason on gRPC and REST,
and the server keeps serving afterwards."""

from __future__ import annotations

import base64
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import grpc
import httpx
import pytest
from google.protobuf.message import Message
from grpc_health.v1 import health_pb2, health_pb2_grpc

from engine.game import new_game
from service.api.core import Core
from service.api.errors import category_of
from service.api.pb import api, api_grpc, game
from service.sealing.keys import KeyRing, new_key_entry
from service.sealing.snapshot import Sealer, new_game_id
from tests.service.helpers import (
    Failure,
    auth,
    call_grpc,
    call_rest,
    grpc_failure,
    ok,
    rest_failure,
    to_json,
)
from tests.service.servers import Running, delay_grpc_calls


@dataclass
class Good:
    """A dealt game (seat 0 to draw), the same after seat 0 drew, and a card it lacks;
    the game's credentials, and the host credential of another game."""

    snapshot: bytes
    melding: bytes
    missing: str
    host: str
    seats: list[str]
    other_host: str
    game_id: str


@pytest.fixture(scope="module")
def good(stub: api_grpc.CanastaEngineStub) -> Good:
    deal = ok(call_grpc(stub, "Deal", api.DealRequest(variant="classic", players=4, seed=21)))
    drew = ok(call_grpc(stub, "ApplyMove", api.ApplyMoveRequest(
        snapshot=deal.snapshot, move=game.Move(text="draw")), token=deal.host_token))
    missing = next(c for c in ("AS", "AH", "KS", "KH", "QS", "QH") if c not in drew.views[0].hand)
    other = ok(call_grpc(stub, "Deal", api.DealRequest(variant="classic", players=4, seed=21)))
    return Good(deal.snapshot, drew.snapshot, missing, deal.host_token, list(deal.seat_tokens),
                other.host_token, deal.header.game_id)


def _forged(token: str) -> str:
    """The token with one character of its MAC changed."""
    return token[:-1] + ("A" if token[-1] != "A" else "B")


def _flip(blob: bytes, index: int) -> bytes:
    b = bytearray(blob)
    b[index] ^= 0x01
    return bytes(b)


def _foreign(key_id: str) -> bytes:
    sealer = Sealer(KeyRing.parse(new_key_entry(key_id)))
    return sealer.seal(new_game("classic", 4, seed=21), new_game_id(), 0, False)[0]


def _legal(snapshot: bytes) -> api.LegalMovesRequest:
    return api.LegalMovesRequest(snapshot=snapshot)


def _apply(g: Good, text: str = "", **kw: object) -> api.ApplyMoveRequest:
    move = game.Move(text=text) if text else None
    return api.ApplyMoveRequest(snapshot=g.snapshot, move=move, **kw)  # type: ignore[arg-type]


def _deal(**kw: object) -> api.DealRequest:
    base: dict[str, object] = {"variant": "classic", "players": 4, "seed": 1}
    base.update(kw)
    return api.DealRequest(**base)  # type: ignore[arg-type]


Build = Callable[[Good], Message]
FORGED_TURN = ("canasta-position 1\nplayers: 4\nhand0: *11\nhand1: *11\nhand2: *11\n"
               "hand3: *11\nphase: buy_window\nstock: *\n")
IA, FP = "INVALID_ARGUMENT", "FAILED_PRECONDITION"
UA, PD = "UNAUTHENTICATED", "PERMISSION_DENIED"

# (case id, method, request builder, code, reason, http status, BadRequest field or None)
CASES: list[tuple[str, str, Build, str, str, int, str | None]] = [
    ("garbage-snapshot", "LegalMoves", lambda g: _legal(b"not a snapshot at all, really"),
     IA, "SNAPSHOT_INVALID", 400, "snapshot"),
    ("tampered-ciphertext", "LegalMoves", lambda g: _legal(_flip(g.snapshot, -20)),
     IA, "SNAPSHOT_INVALID", 400, "snapshot"),
    ("tampered-tag", "ScoreHand",
     lambda g: api.ScoreHandRequest(snapshot=_flip(g.snapshot, -1)),
     IA, "SNAPSHOT_INVALID", 400, "snapshot"),
    ("tampered-header-seq", "LegalMoves", lambda g: _legal(_flip(g.snapshot, 38)),
     IA, "SNAPSHOT_INVALID", 400, "snapshot"),
    ("tampered-imported-flag", "ExportPosition",
     lambda g: api.ExportPositionRequest(snapshot=_flip(g.snapshot, 3)),
     IA, "SNAPSHOT_INVALID", 400, "snapshot"),
    ("truncated", "LegalMoves", lambda g: _legal(g.snapshot[: len(g.snapshot) // 2]),
     IA, "SNAPSHOT_INVALID", 400, "snapshot"),
    ("truncated-header", "GetView", lambda g: api.GetViewRequest(snapshot=g.snapshot[:10]),
     IA, "SNAPSHOT_INVALID", 400, "snapshot"),
    ("empty-snapshot", "LegalMoves", lambda g: _legal(b""), IA, "SNAPSHOT_INVALID", 400,
     "snapshot"),
    ("foreign-key-id", "LegalMoves", lambda g: _legal(_foreign("someone-else")),
     IA, "SNAPSHOT_KEY_RETIRED", 400, "snapshot"),
    ("foreign-key-same-id", "LegalMoves", lambda g: _legal(_foreign("test-1")),
     IA, "SNAPSHOT_INVALID", 400, "snapshot"),
    ("oversized-snapshot", "LegalMoves", lambda g: _legal(g.snapshot + bytes(20000)),
     IA, "SNAPSHOT_INVALID", 400, "snapshot"),
    ("unknown-format-version", "LegalMoves",
     lambda g: _legal(g.snapshot[:2] + bytes((9,)) + g.snapshot[3:]),
     IA, "SNAPSHOT_VERSION_UNSUPPORTED", 400, None),
    ("unknown-variant", "Deal", lambda g: _deal(variant="no_such_game"), IA, "UNKNOWN_VARIANT", 400,
     "variant"),
    ("bad-player-count", "Deal", lambda g: _deal(players=9), IA, "BAD_PLAYER_COUNT", 400,
     "players"),
    ("negative-player-count", "Deal", lambda g: _deal(players=-4), IA, "BAD_PLAYER_COUNT", 400,
     "players"),
    ("missing-variant", "Deal", lambda g: _deal(variant=""), IA, "REQUEST_INVALID", 400,
     "variant"),
    ("missing-players", "Deal", lambda g: _deal(players=0), IA, "REQUEST_INVALID", 400,
     "players"),
    ("unknown-option", "Deal", lambda g: _deal(options={"no_such": "1"}), IA, "UNKNOWN_OPTION",
     400, "options"),
    ("bad-option-value", "Deal", lambda g: _deal(options={"target_score": "lots"}), IA,
     "BAD_OPTION_VALUE", 400, "options.target_score"),
    ("short-deck", "Deal", lambda g: _deal(deck=["AS", "KS"]), IA, "BAD_DECK", 400, "deck"),
    ("bad-card-in-deck", "Deal", lambda g: _deal(deck=["ZZ"]), IA, "BAD_CARD", 400, "deck"),
    ("bad-view-seat", "Deal", lambda g: _deal(view_seat=4), IA, "BAD_SEAT", 400, "view_seat"),
    ("illegal-move-phase", "ApplyMove", lambda g: _apply(g, "discard 4S"), FP, "WRONG_PHASE",
     422, None),
    ("illegal-move-cards", "ApplyMove",
     lambda g: api.ApplyMoveRequest(snapshot=g.melding, move=game.Move(text=f"discard {g.missing}")),
     IA, "CARDS_NOT_IN_HAND", 400, "move"),
    ("illegal-draw-twice", "ApplyMove",
     lambda g: api.ApplyMoveRequest(snapshot=g.melding, move=game.Move(text="draw")),
     FP, "WRONG_PHASE", 422, None),
    ("out-of-turn", "ApplyMove", lambda g: _apply(g, "draw", seat=1), FP, "NOT_YOUR_TURN", 422,
     None),
    ("no-such-seat", "ApplyMove", lambda g: _apply(g, "draw", seat=7), IA, "BAD_SEAT", 400,
     "seat"),
    ("wrong-expected-seq", "ApplyMove", lambda g: _apply(g, "draw", expected_seq=3),
     "ABORTED", "SNAPSHOT_STALE", 409, None),
    ("stale-next-deal", "NextDeal",
     lambda g: api.NextDealRequest(snapshot=g.snapshot, expected_seq=1),
     "ABORTED", "SNAPSHOT_STALE", 409, None),
    ("missing-move", "ApplyMove", lambda g: _apply(g), IA, "REQUEST_INVALID", 400, "move"),
    ("empty-move", "ApplyMove",
     lambda g: api.ApplyMoveRequest(snapshot=g.snapshot, move=game.Move()),
     IA, "REQUEST_INVALID", 400, "move"),
    ("unreadable-move", "ApplyMove", lambda g: _apply(g, "fly away"), IA, "BAD_MOVE_SYNTAX",
     400, "move"),
    ("bad-card-typed", "ApplyMove",
     lambda g: api.ApplyMoveRequest(snapshot=g.snapshot,
                                    move=game.Move(discard=game.Move.Discard(card="1X"))),
     IA, "BAD_CARD", 400, "move"),
    ("text-disagrees", "ApplyMove",
     lambda g: api.ApplyMoveRequest(snapshot=g.snapshot,
                                    move=game.Move(text="ask", draw=game.Move.Draw())),
     IA, "REQUEST_INVALID", 400, "move.text"),
    ("hand-not-over", "NextDeal", lambda g: api.NextDealRequest(snapshot=g.snapshot),
     FP, "HAND_NOT_OVER", 422, None),
    ("bad-view-seat-get", "GetView", lambda g: api.GetViewRequest(snapshot=g.snapshot, seat=-2),
     IA, "BAD_SEAT", 400, "seat"),
    ("bad-notation", "ImportPosition",
     lambda g: api.ImportPositionRequest(position="chess, really"), IA, "BAD_NOTATION", 400,
     "position"),
    # a readable text whose turn play cannot leave (a Canasta game in May I?'s buy window)
    ("forged-turn", "ImportPosition",
     lambda g: api.ImportPositionRequest(position=FORGED_TURN), IA, "BAD_NOTATION", 400,
     "position"),
    ("missing-position", "ImportPosition", lambda g: api.ImportPositionRequest(),
     IA, "REQUEST_INVALID", 400, "position"),
    # credentials (the column CREDENTIAL below says which one each case sends)
    ("no-credential-legal", "LegalMoves", lambda g: _legal(g.snapshot),
     UA, "CREDENTIAL_REQUIRED", 401, None),
    ("no-credential-apply", "ApplyMove", lambda g: _apply(g, "draw"),
     UA, "CREDENTIAL_REQUIRED", 401, None),
    ("no-credential-suggest", "SuggestMove", lambda g: api.SuggestMoveRequest(snapshot=g.snapshot),
     UA, "CREDENTIAL_REQUIRED", 401, None),
    ("no-credential-export", "ExportPosition",
     lambda g: api.ExportPositionRequest(snapshot=g.snapshot),
     UA, "CREDENTIAL_REQUIRED", 401, None),
    ("no-credential-next-deal", "NextDeal", lambda g: api.NextDealRequest(snapshot=g.snapshot),
     UA, "CREDENTIAL_REQUIRED", 401, None),
    ("no-credential-seat-view", "GetView", lambda g: api.GetViewRequest(snapshot=g.snapshot, seat=0),
     UA, "CREDENTIAL_REQUIRED", 401, None),
    ("forged-credential", "LegalMoves", lambda g: _legal(g.snapshot),
     UA, "CREDENTIAL_INVALID", 401, None),
    ("other-game-credential", "GetView", lambda g: api.GetViewRequest(snapshot=g.snapshot),
     UA, "CREDENTIAL_INVALID", 401, None),
    ("garbage-credential", "ScoreHand", lambda g: api.ScoreHandRequest(snapshot=g.snapshot),
     UA, "CREDENTIAL_INVALID", 401, None),
    ("future-credential-version", "LegalMoves", lambda g: _legal(g.snapshot),
     UA, "CREDENTIAL_VERSION_UNSUPPORTED", 401, None),
    ("seat-moves-for-another", "ApplyMove", lambda g: _apply(g, "draw", seat=1),
     PD, "SEAT_NOT_ALLOWED", 403, None),
    ("seat-reads-another-view", "GetView",
     lambda g: api.GetViewRequest(snapshot=g.snapshot, seat=2), PD, "SEAT_NOT_ALLOWED", 403, None),
    ("seat-exports", "ExportPosition", lambda g: api.ExportPositionRequest(snapshot=g.snapshot),
     PD, "SEAT_NOT_ALLOWED", 403, None),
    ("seat-advised-for-another", "SuggestMove",
     lambda g: api.SuggestMoveRequest(snapshot=g.snapshot, seat=3),
     PD, "SEAT_NOT_ALLOWED", 403, None),
    ("seat-stacks-next-deck", "NextDeal",
     lambda g: api.NextDealRequest(snapshot=g.snapshot, deck=["AS"]),
     PD, "SEAT_NOT_ALLOWED", 403, None),
    ("seat-views-another-after-move", "ApplyMove", lambda g: _apply(g, "draw", view_seat=1),
     PD, "SEAT_NOT_ALLOWED", 403, None),
    ("wrong-expected-game", "ApplyMove",
     lambda g: _apply(g, "draw", expected_game_id="00000000-0000-0000-0000-000000000000"),
     "ABORTED", "SNAPSHOT_WRONG_GAME", 409, None),
    ("wrong-expected-game-next-deal", "NextDeal",
     lambda g: api.NextDealRequest(snapshot=g.snapshot,
                                   expected_game_id="00000000-0000-0000-0000-000000000000"),
     "ABORTED", "SNAPSHOT_WRONG_GAME", 409, None),
    ("malformed-expected-game", "ApplyMove",
     lambda g: _apply(g, "draw", expected_game_id=g.game_id + "0"),
     IA, "REQUEST_INVALID", 400, "expected_game_id"),
    ("malformed-expected-game-next-deal", "NextDeal",
     lambda g: api.NextDealRequest(snapshot=g.snapshot, expected_game_id="not a game id"),
     IA, "REQUEST_INVALID", 400, "expected_game_id"),
]

# The credential each case sends (the host's unless named here): a function of the game.
CREDENTIAL: dict[str, Callable[[Good], str | None]] = {
    "no-credential-legal": lambda g: None, "no-credential-apply": lambda g: None,
    "no-credential-suggest": lambda g: None, "no-credential-export": lambda g: None,
    "no-credential-next-deal": lambda g: None, "no-credential-seat-view": lambda g: None,
    "forged-credential": lambda g: _forged(g.seats[0]),
    "other-game-credential": lambda g: g.other_host,
    "garbage-credential": lambda g: "not-a-token",
    "future-credential-version": lambda g: "ct9" + g.host[3:],
    "seat-moves-for-another": lambda g: g.seats[0],
    "seat-reads-another-view": lambda g: g.seats[1],
    "seat-exports": lambda g: g.seats[0],
    "seat-advised-for-another": lambda g: g.seats[0],
    "seat-stacks-next-deck": lambda g: g.seats[2],
    "seat-views-another-after-move": lambda g: g.seats[0],
}


def _still_serves(stub: api_grpc.CanastaEngineStub, http: httpx.Client, g: Good,
                  server: Running) -> None:
    ok(call_grpc(stub, "LegalMoves", _legal(g.snapshot), token=g.host))
    ok(call_rest(http, "LegalMoves", _legal(g.snapshot), token=g.seats[0]))
    with grpc.insecure_channel(server.grpc_target) as channel:
        health = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest())
    assert health.status == health_pb2.HealthCheckResponse.SERVING
    assert http.get("/healthz").status_code == 200


@pytest.mark.parametrize(("case", "method", "build", "code", "reason", "status", "field"), CASES,
                         ids=[c[0] for c in CASES])
def test_bad_input(case: str, method: str, build: Build, code: str, reason: str, status: int,
                   field: str | None, good: Good, stub: api_grpc.CanastaEngineStub,
                   http: httpx.Client, server: Running) -> None:
    request = build(good)
    token = CREDENTIAL.get(case, lambda g: g.host)(good)
    over_grpc = call_grpc(stub, method, request, token=token)
    over_rest = call_rest(http, method, request, token=token)
    for got in (over_grpc, over_rest):
        assert isinstance(got, Failure), f"{case}: accepted"
        assert (got.code, got.reason) == (code, reason), got
        assert got.message
        # the documented mapping: a rule refusal, and only that, is FAILED_PRECONDITION
        assert got.category == category_of(reason).value, got
        assert (got.category == "rule") == (code == FP), got
        if field is not None:
            assert got.fields == [field], got
    assert isinstance(over_rest, Failure) and over_rest.http_status == status
    assert (status == 422) == (code == FP)  # rule refusals have their own HTTP status
    if reason.startswith("CREDENTIAL") or reason == "SEAT_NOT_ALLOWED":
        for got in (over_grpc, over_rest):  # a refusal of access names no card
            assert not CARD_CODE.search(got.message), got.message
    _still_serves(stub, http, good, server)


CARD_CODE = re.compile(r"\b([2-9TJQKA][SHDC]|JK)\b")


@pytest.mark.parametrize("headers", [
    [("authorization", "Basic dXNlcjpwYXNz")],
    [("authorization", "Bearer")],
    [("authorization", "Bearer a"), ("authorization", "Bearer b")],
], ids=["basic-scheme", "empty-bearer", "two-credentials"])
def test_malformed_authorization_is_credential_invalid(
        headers: list[tuple[str, str]], good: Good, stub: api_grpc.CanastaEngineStub,
        http: httpx.Client, server: Running) -> None:
    """One credential per call, as ``Bearer <token>`` (RFC 6750): anything else is refused
    as CREDENTIAL_INVALID on both faces, with the scheme named in WWW-Authenticate."""
    if len(headers) > 1:  # two valid credentials are still two
        headers = [("authorization", f"Bearer {good.host}"),
                   ("authorization", f"Bearer {good.seats[0]}")]
    resp = http.post("/v1/legal-moves", content=to_json(_legal(good.snapshot)),
                     headers=[("content-type", "application/json"), *headers])
    assert resp.status_code == 401
    assert resp.headers["www-authenticate"].startswith("Bearer")
    assert rest_failure(resp).reason == "CREDENTIAL_INVALID"
    with pytest.raises(grpc.RpcError) as err:
        stub.LegalMoves(_legal(good.snapshot), metadata=headers)
    assert grpc_failure(err.value).reason == "CREDENTIAL_INVALID"
    _still_serves(stub, http, good, server)


REST_CASES: list[tuple[str, str, bytes, int, str, str]] = [
    ("malformed-json", "/v1/deal", b'{"variant": "classic", players: 4', 400,
     "INVALID_ARGUMENT", "REQUEST_INVALID"),
    ("not-an-object", "/v1/deal", b"[1, 2, 3]", 400, "INVALID_ARGUMENT", "REQUEST_INVALID"),
    ("unknown-field", "/v1/deal", b'{"variant": "classic", "players": 4, "colour": "red"}', 400,
     "INVALID_ARGUMENT", "REQUEST_INVALID"),
    ("wrong-type", "/v1/deal", b'{"variant": "classic", "players": "four"}', 400,
     "INVALID_ARGUMENT", "REQUEST_INVALID"),
    # proto3 JSON reads base64 leniently: junk decodes to bytes that do not open
    ("bad-base64", "/v1/legal-moves", b'{"snapshot": "***"}', 400, "INVALID_ARGUMENT",
     "SNAPSHOT_INVALID"),
    ("not-utf8", "/v1/deal", b'{"variant": "\xff\xfe"}', 400, "INVALID_ARGUMENT",
     "REQUEST_INVALID"),
    ("deep-nesting", "/v1/deal", b"[" * 20000, 400, "INVALID_ARGUMENT", "REQUEST_INVALID"),
    ("oversized-body", "/v1/legal-moves",
     b'{"snapshot": "' + b"A" * 70000 + b'"}', 413, "RESOURCE_EXHAUSTED", "REQUEST_TOO_LARGE"),
    ("unknown-route", "/v1/shuffle", b"{}", 404, "NOT_FOUND", "NOT_FOUND"),
    ("trailing-slash", "/v1/deal/", b"{}", 404, "NOT_FOUND", "NOT_FOUND"),
]


@pytest.mark.parametrize(("case", "path", "body", "status", "code", "reason"), REST_CASES,
                         ids=[c[0] for c in REST_CASES])
def test_bad_rest_body(case: str, path: str, body: bytes, status: int, code: str, reason: str,
                       good: Good, stub: api_grpc.CanastaEngineStub, http: httpx.Client,
                       server: Running) -> None:
    resp = http.post(path, content=body, headers={"content-type": "application/json"})
    assert resp.status_code == status, resp.text
    error = resp.json()["error"]
    assert (error["code"], error["status"]) == (status, code)
    infos = [d for d in error["details"] if d["@type"].endswith("google.rpc.ErrorInfo")]
    assert [i["reason"] for i in infos] == [reason]
    assert infos[0]["domain"] == "canasta-rules"
    _still_serves(stub, http, good, server)


def test_an_expected_game_id_is_never_echoed_beyond_its_form(
        good: Good, stub: api_grpc.CanastaEngineStub, http: httpx.Client) -> None:
    """A huge expected_game_id is refused without being echoed (the answer stays small);
    one of a game id's form, in capitals and spaces, is compared and echoed as a game id."""
    huge = _apply(good, "draw", expected_game_id="A" * 60000)
    for got in (call_grpc(stub, "ApplyMove", huge, token=good.host),
                call_rest(http, "ApplyMove", huge, token=good.host)):
        assert isinstance(got, Failure) and got.reason == "REQUEST_INVALID", got
        assert got.fields == ["expected_game_id"] and "AAAA" not in got.message, got
    resp = http.post("/v1/apply-move", content=to_json(huge), headers={
        "content-type": "application/json", "authorization": f"Bearer {good.host}"})
    assert resp.status_code == 400 and len(resp.content) < 2000
    other = "0123ABCD-0000-0000-0000-000000000000"
    resp = http.post("/v1/apply-move", content=to_json(_apply(good, "draw", expected_game_id=(
        f" {other}\t"))), headers={"content-type": "application/json",
                                   "authorization": f"Bearer {good.host}"})
    info = resp.json()["error"]["details"][0]
    assert (resp.status_code, info["reason"]) == (409, "SNAPSHOT_WRONG_GAME")
    assert info["metadata"]["expected_game_id"] == other.lower()
    mine = _apply(good, "draw", expected_game_id=f"  {good.game_id.upper()} ")
    ok(call_grpc(stub, "ApplyMove", mine, token=good.host))


@pytest.mark.parametrize("body", [b"[]", b"1", b'"x"', b"null", b"true", b"[1, 2]",
                                  b' ["snapshot"]'])
@pytest.mark.parametrize("path", ["/v1/deal", "/v1/legal-moves", "/v1/apply-move"])
def test_a_body_that_is_not_an_object_is_refused(path: str, body: bytes,
                                                 http: httpx.Client) -> None:
    """Every request is a JSON object: any other JSON value is refused as such (json_format
    alone would read [] as an empty request and "x" as a field name)."""
    resp = http.post(path, content=body, headers={"content-type": "application/json"})
    assert resp.status_code == 400, resp.text
    failure = rest_failure(resp)
    assert (failure.reason, failure.fields) == ("REQUEST_INVALID", ["body"]), failure
    assert "the body must be a JSON object" in failure.message


# Words of Python's errors that json_format passes on for a value of the wrong type
PYTHON_WORDS = re.compile(r"int\(\)|NoneType|object is not|bytes-like|unhashable|has no len|"
                          r"indices must|Error\b|literal for")


@pytest.mark.parametrize(("path", "body", "field", "words"), [
    ("/v1/legal-moves", {"pageSize": "abc"}, "pageSize",
     "pageSize must be an integer from -2147483648 to 2147483647"),
    ("/v1/legal-moves", {"snapshot": 123}, "snapshot", "snapshot must be a base64 string"),
    ("/v1/apply-move", {"move": {"text": "draw"}, "expectedSeq": "abc"}, "expectedSeq",
     "expectedSeq must be an integer from 0 to 18446744073709551615"),
    ("/v1/apply-move", {"move": 5}, "move", "move must be an object"),
    ("/v1/apply-move", {"move": {"text": "draw"}, "expectedGameId": 5}, "expectedGameId",
     "expectedGameId must be a string"),
    ("/v1/apply-move", {"move": ["text"]}, "move", "move must be an object"),
    # a string where an object belongs: json_format reads its characters as field names
    # (no field "d" in move.d); the string is what is wrong
    ("/v1/apply-move", {"move": "draw"}, "move", "move must be an object"),
    ("/v1/apply-move", {"move": {"takePile": "9S 9C"}}, "move.takePile",
     "move.takePile must be an object"),
    ("/v1/apply-move", {"move": {"meld": {"groups": [{"cards": ["9S", 7]}]}}},
     "move.meld.groups[0].cards[1]", "move.meld.groups[0].cards[1] must be a string"),
    ("/v1/apply-move", {"move": {"layOff": {"seat": 2**40, "meld": 0, "card": "9D"}}},
     "move.layOff.seat", "move.layOff.seat must be an integer from -2147483648 to 2147483647"),
    ("/v1/deal", {"variant": "classic", "players": [4]}, "players",
     "players must be an integer from -2147483648 to 2147483647"),
    ("/v1/deal", {"variant": ["classic"], "players": 4}, "variant", "variant must be a string"),
    ("/v1/deal", {"variant": "classic", "players": 4, "options": {"target_score": 5000}},
     "options", "options must be an object of strings"),
    ("/v1/deal", {"variant": "classic", "players": 4, "deck": [1]}, "deck[0]",
     "deck[0] must be a string"),
    ("/v1/deal", {"variant": "classic", "players": 4, "seed": "-1"}, "seed",
     "seed must be an integer from 0 to 18446744073709551615"),
    ("/v1/position:import", {"position": 5}, "position", "position must be a string"),
])
def test_a_value_of_the_wrong_type_is_named_with_its_type(
        path: str, body: dict[str, object], field: str, words: str, good: Good,
        http: httpx.Client) -> None:
    """REQUEST_INVALID on the field, saying what it must be: never the words of the Python
    error json_format met ("invalid literal for int() with base 10")."""
    if "snapshot" not in body and path != "/v1/deal" and path != "/v1/position:import":
        body = {"snapshot": base64.b64encode(good.snapshot).decode(), **body}
    resp = http.post(path, json=body, headers={"authorization": f"Bearer {good.host}"})
    assert resp.status_code == 400, resp.text
    failure = rest_failure(resp)
    assert (failure.reason, failure.fields) == ("REQUEST_INVALID", [field]), failure
    assert words in failure.message and not PYTHON_WORDS.search(failure.message), failure


@pytest.mark.parametrize(("path", "body", "field"), [
    ("/v1/deal", b'{"variant": "classic", "players": 4, "players": 2}', "players"),
    ("/v1/deal", b'{"variant": "classic", "players": 4, "options": {"a": "1", "a": "2"}}',
     "options.a"),
    # one field by its JSON and its proto name: json_format kept the last without a word
    ("/v1/legal-moves", b'{"snapshot": "S", "pageSize": 1, "page_size": 2}', "page_size"),
    ("/v1/deal", b'{"variant": "classic", "players": 4, "view_seat": 1, "viewSeat": 2}',
     "viewSeat"),
    ("/v1/apply-move", b'{"snapshot": "S", "move": {"text": "draw", "text": "ask"}}',
     "move.text"),
    ("/v1/apply-move", b'{"snapshot": "S", "move": {"meld": {"groups": [{"cards": ["KS"]}, '
     b'{"cards": ["KH"], "cards": ["KD"]}]}}}', "move.meld.groups[1].cards"),
])
def test_a_field_given_twice_is_named(path: str, body: bytes, field: str, good: Good,
                                      http: httpx.Client) -> None:
    """A JSON key written twice, or one field by both its names, is REQUEST_INVALID on that
    field's JSON path, saying so, in both languages. Before, a repeated key was refused on
    ``body`` in json_format's words ("Failed to load JSON: Failed to load JSON: duplicate
    key players.."), the two names of an optional field as the internal oneof
    "_view_seat", and the two names of any other field were accepted, the last one kept
    (a proxy in front may have read the first)."""
    body = body.replace(b'"S"', b'"' + base64.b64encode(good.snapshot) + b'"')
    for lang in ("en", "ru"):
        resp = http.post(path, content=body, headers={
            "content-type": "application/json", "authorization": f"Bearer {good.host}",
            "accept-language": lang})
        assert resp.status_code == 400, resp.text
        failure = rest_failure(resp)
        assert (failure.reason, failure.fields) == ("REQUEST_INVALID", [field]), failure
        assert field in failure.message, failure
        if lang == "en":
            assert f"{field} is given twice" in failure.message, failure


@pytest.mark.parametrize("path", ["/v1/legal-moves", "/v1/apply-move", "/v1/score-hand",
                                  "/v1/view", "/v1/record:export", "/v1/suggest-move"])
def test_a_lone_surrogate_in_a_snapshot_is_refused_on_its_field(path: str,
                                                                http: httpx.Client) -> None:
    """JSON may escape half of a UTF-16 pair ("\\ud800"), which no base64 text holds: a
    4xx on the snapshot, never a 500 (it was one: the words for the refusal were sought by
    encoding the string as UTF-8)."""
    resp = http.post(path, content=b'{"snapshot": "\\ud800"}',
                     headers={"content-type": "application/json"})
    assert resp.status_code == 400, resp.text
    failure = rest_failure(resp)
    assert (failure.reason, failure.fields) == ("REQUEST_INVALID", ["snapshot"]), failure
    assert "snapshot must be a base64 string" in failure.message


@pytest.mark.parametrize(("body", "words"), [
    (b'{"variant": "\xff"}', "the body is not UTF-8 text"),
    (b'{"variant": ' * 3000, "the body is nested too deeply"),
    (b'{"variant": "classic",}', "the body is not JSON: Expecting property name enclosed "
                                 "in double quotes (line 1, column 23)"),
])
def test_a_body_that_is_not_json_says_why(body: bytes, words: str, http: httpx.Client) -> None:
    resp = http.post("/v1/deal", content=body, headers={"content-type": "application/json"})
    failure = rest_failure(resp)
    assert (resp.status_code, failure.reason, failure.fields) == (400, "REQUEST_INVALID",
                                                                  ["body"]), failure
    assert words in failure.message and not PYTHON_WORDS.search(failure.message), failure


def test_chunked_oversized_body_is_refused(http: httpx.Client) -> None:
    def chunks():  # no Content-Length: the limit is enforced while reading
        for _ in range(40):
            yield b" " * 4096

    resp = http.post("/v1/deal", content=chunks(), headers={"content-type": "application/json"})
    assert resp.status_code == 413
    assert resp.json()["error"]["details"][0]["reason"] == "REQUEST_TOO_LARGE"


def test_wrong_http_method(http: httpx.Client) -> None:
    resp = http.get("/v1/deal")
    assert resp.status_code == 405
    assert resp.json()["error"]["details"][0]["reason"] == "METHOD_NOT_ALLOWED"


def test_oversized_grpc_message(stub: api_grpc.CanastaEngineStub, good: Good,
                                http: httpx.Client, server: Running) -> None:
    """Over the limit (64 KiB here): RESOURCE_EXHAUSTED with the typed reason, as on REST;
    only past the hard cap (4x) does gRPC itself refuse it, without details."""
    got = call_grpc(stub, "LegalMoves", _legal(bytes(70000)), token=good.host)
    assert isinstance(got, Failure)
    assert (got.code, got.reason) == ("RESOURCE_EXHAUSTED", "REQUEST_TOO_LARGE")
    got = call_grpc(stub, "LegalMoves", _legal(bytes(4 * 65536 + 10)), token=good.host)
    assert isinstance(got, Failure) and (got.code, got.reason) == ("RESOURCE_EXHAUSTED", "")
    _still_serves(stub, http, good, server)


def test_expired_deadline(stub: api_grpc.CanastaEngineStub, good: Good, http: httpx.Client,
                          server: Running, monkeypatch: pytest.MonkeyPatch) -> None:
    """A call whose deadline passed before the engine runs is not run at all."""
    def expired() -> float:
        text = http.get("/metrics").text
        line = next((ln for ln in text.splitlines() if ln.startswith(
            "grpc_server_handled_total{") and 'grpc_code="DeadlineExceeded"' in ln
            and 'grpc_method="LegalMoves"' in ln), "x 0")
        return float(line.rsplit(" ", 1)[1])

    before = expired()
    held = threading.Event()

    def hold(context: grpc.ServicerContext) -> None:
        """A long queue, say: the call waits until its own deadline on the server has
        passed (the server's clock started when the call arrived, after the client's)."""
        held.set()
        stop = time.monotonic() + 30
        while (context.time_remaining() or 0) > 0 and time.monotonic() < stop:
            time.sleep(0.01)

    delay_grpc_calls(monkeypatch, hold)
    ran: list[str] = []
    handle = Core.handle

    def recorded(self: Core, name: str, *args: Any) -> Any:
        ran.append(name)
        return handle(self, name, *args)

    monkeypatch.setattr(Core, "handle", recorded)
    # a deadline long enough for the call to reach its handler on a loaded machine (one that
    # expires before grpcio dispatches it never reaches the service, nor its metrics)
    with pytest.raises(grpc.RpcError) as err:
        stub.LegalMoves(_legal(good.snapshot), timeout=1.0, metadata=auth(good.host))
    assert err.value.code() is grpc.StatusCode.DEADLINE_EXCEEDED
    assert held.is_set(), "the call never reached the service"
    deadline = time.monotonic() + 30  # the server side ends a little later
    while expired() == before:
        assert time.monotonic() < deadline, "the expired call was never counted"
        time.sleep(0.02)
    assert "LegalMoves" not in ran, "the engine ran a call whose deadline had passed"
    assert expired() == before + 1
    monkeypatch.undo()
    _still_serves(stub, http, good, server)


def test_messages_follow_the_language(stub: api_grpc.CanastaEngineStub, http: httpx.Client,
                                      good: Good) -> None:
    request = _apply(good, "draw", seat=2)
    for lang, text in (("ru", "Сейчас ход другого игрока."),
                       ("ru-RU,ru;q=0.9,en;q=0.5", "Сейчас ход другого игрока."),
                       ("en", "seat 0 is to move, not seat 2"),
                       (None, "seat 0 is to move, not seat 2")):
        for got in (call_grpc(stub, "ApplyMove", request, lang, token=good.host),
                    call_rest(http, "ApplyMove", request, lang, token=good.host)):
            assert isinstance(got, Failure)
            assert (got.reason, got.message) == ("NOT_YOUR_TURN", text)
