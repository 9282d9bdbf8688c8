"""A page token is bound to its game's list, and a refusal's BadRequest
names the request field that is wrong (docs/api.md, *Errors* and *LegalMoves*)."""

from __future__ import annotations

import httpx
import pytest
from google.protobuf import json_format

from engine.game import new_game
from engine.notation import export_position
from service.api.pb import api, api_grpc, game
from tests.service.helpers import Failure, call_grpc, call_rest, ok


def test_page_token_of_another_game_is_refused(stub: api_grpc.CanastaEngineStub) -> None:
    """Two games at the same seq with lists of the same length: one's token is not the
    other's (AIP-158: a token from another request is INVALID_ARGUMENT)."""
    a = ok(call_grpc(stub, "Deal", api.DealRequest(variant="classic", players=4, seed=1)))
    b = ok(call_grpc(stub, "Deal", api.DealRequest(variant="classic", players=4, seed=2)))
    first = ok(call_grpc(stub, "LegalMoves", api.LegalMovesRequest(
        snapshot=a.snapshot, page_size=1), token=a.host_token))
    assert first.next_page_token
    same = ok(call_grpc(stub, "LegalMoves", api.LegalMovesRequest(
        snapshot=a.snapshot, page_token=first.next_page_token), token=a.host_token))
    assert same.moves  # the token still works where it came from
    other = call_grpc(stub, "LegalMoves", api.LegalMovesRequest(
        snapshot=b.snapshot, page_token=first.next_page_token), token=b.host_token)
    assert isinstance(other, Failure), "another game's token was accepted"
    assert (other.code, other.reason, other.fields) == (
        "INVALID_ARGUMENT", "REQUEST_INVALID", ["page_token"])


@pytest.mark.parametrize(("body", "field"), [
    (b'{"variant": "classic", "players": 4.5}', "players"),
    (b'{"variant": "classic", "players": 4, "seed": -1}', "seed"),
    (b'{"variant": ["classic"], "players": 4}', "variant"),
    (b'{"variant": "classic", "players": 4, "deck": "AS"}', "deck"),
    (b'{"variant": "classic", "players": 4, "viewSeat": true}', "viewSeat"),
    (b'{"variant": "classic", "players": 4, "colour": "red"}', "colour"),
])
def test_rest_names_the_json_field_that_did_not_parse(http: httpx.Client, body: bytes,
                                                      field: str) -> None:
    resp = http.post("/v1/deal", content=body, headers={"content-type": "application/json"})
    assert resp.status_code == 400, resp.text
    details = resp.json()["error"]["details"]
    fields = [v["field"] for d in details for v in d.get("fieldViolations", [])]
    assert fields == [field], (body, fields)


POSITION = export_position(new_game("classic", 2, seed=1))


@pytest.mark.parametrize(("text", "reason"), [
    (POSITION.replace("players: 2", "players: 9"), "BAD_PLAYER_COUNT"),
    (POSITION.replace("variant: classic", "variant: bridge"), "UNKNOWN_VARIANT"),
    (POSITION.replace("options: -", "options: nope=1"), "UNKNOWN_OPTION"),
])
def test_import_position_refusals_name_the_position_field(
        stub: api_grpc.CanastaEngineStub, http: httpx.Client, text: str, reason: str) -> None:
    """ImportPositionRequest has one field the engine reads: every malformed part of the
    text is that field's, never a field the request does not have."""
    request = api.ImportPositionRequest(position=text)
    for got in (call_grpc(stub, "ImportPosition", request),
                call_rest(http, "ImportPosition", request)):
        assert isinstance(got, Failure)
        assert (got.reason, got.fields) == (reason, ["position"]), got


@pytest.mark.parametrize(("variant", "players", "move"), [
    ("classic", 2, "add K#\u00b2 KS"), ("may_i", 4, "layoff \u00b2:0 5H")])
def test_a_superscript_number_in_a_move_is_invalid_argument(
        stub: api_grpc.CanastaEngineStub, variant: str, players: int, move: str) -> None:
    """'²' passes ``str.isdigit`` and fails ``int``: the move was INTERNAL (a 500)."""
    dealt = ok(call_grpc(stub, "Deal", api.DealRequest(variant=variant, players=players,
                                                        seed=10)))
    got = call_grpc(stub, "ApplyMove", api.ApplyMoveRequest(
        snapshot=dealt.snapshot, move=game.Move(text=move)), token=dealt.host_token)
    assert isinstance(got, Failure)
    assert (got.code, got.reason, got.fields) == ("INVALID_ARGUMENT", "BAD_MOVE_SYNTAX",
                                                  ["move"])


def test_a_refusal_quotes_at_most_500_characters_of_the_callers_text(
        stub: api_grpc.CanastaEngineStub, http: httpx.Client) -> None:
    """A 30 KB unknown variant in a position, or a 40 KB move, was quoted whole in the
    message, the localized message and the BadRequest description: an answer three times
    the request's size. Each is now cut at 500 characters, on both faces."""
    dealt = ok(call_grpc(stub, "Deal", api.DealRequest(variant="classic", players=2, seed=3)))
    cases = [
        ("ImportPosition", api.ImportPositionRequest(
            position=POSITION.replace("variant: classic", "variant: " + "x" * 30000)),
         None, "UNKNOWN_VARIANT"),
        ("ApplyMove", api.ApplyMoveRequest(snapshot=dealt.snapshot,
                                           move=game.Move(text="draw" * 10000)),
         dealt.host_token, "BAD_MOVE_SYNTAX"),
    ]
    for method, request, token, reason in cases:
        answer = http.post(f"/v1/{'position:import' if method == 'ImportPosition' else 'apply-move'}",
                           content=json_format.MessageToJson(request),
                           headers={"content-type": "application/json",
                                    **({"authorization": f"Bearer {token}"} if token else {})})
        assert answer.status_code == 400 and len(answer.content) < 4000, len(answer.content)
        got = call_grpc(stub, method, request, token=token)
        assert isinstance(got, Failure) and got.reason == reason
        assert len(got.message) <= 500 and got.message.endswith("…"), len(got.message)
