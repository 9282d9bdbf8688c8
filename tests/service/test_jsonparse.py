"""The fast proto3 JSON parser agrees with ``json_format.Parse`` on every body: the same
message when both accept it, the same refusal (type and text) when it is refused."""

from __future__ import annotations

import base64
import json
import random
from typing import Any

import pytest
from google.protobuf import json_format
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Phase, apply, legal_moves, new_game
from service.api import convert
from service.api.pb import api, game
from service.rest import examples, jsonparse

REQUESTS = [api.DealRequest, api.LegalMovesRequest, api.ApplyMoveRequest, api.ScoreHandRequest,
            api.GetViewRequest, api.NextDealRequest, api.ImportPositionRequest,
            api.ExportPositionRequest, api.SuggestMoveRequest, api.ListVariantsRequest]


def _outcome(body: bytes, cls: type[Message], parse: Any) -> tuple[str, Any]:
    msg = cls()
    try:
        parse(body, msg)
    except Exception as err:  # the refusal itself is what must agree
        return type(err).__name__, str(err)
    return "ok", msg.SerializeToString(deterministic=True)


def _agree(body: bytes, cls: type[Message]) -> tuple[str, Any]:
    fast = _outcome(body, cls, jsonparse.parse)
    assert fast == _outcome(body, cls, json_format.Parse), body
    return fast


def _real_bodies() -> list[tuple[type[Message], dict[str, Any]]]:
    """Requests a host really sends: every listed move of some games, typed and as text."""
    out: list[tuple[type[Message], dict[str, Any]]] = []
    snap = base64.b64encode(b"\x00\x01 snapshot bytes \xff").decode()
    for variant in ("classic", "samba", "bolivia", "may_i"):
        rng = random.Random(variant)
        state = new_game(variant, 4, seed=3)
        for _ in range(120):
            if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
                break
            moves = legal_moves(state)
            for m in moves:
                typed = json_format.MessageToDict(convert.move_to_pb(m))
                out.append((api.ApplyMoveRequest,
                            {"snapshot": snap, "move": typed, "expectedSeq": "7", "seat": 1}))
                out.append((api.ApplyMoveRequest, {"snapshot": snap, "move": {"text": str(m)},
                                                   "expected_seq": 7}))
            state = apply(state, rng.choice(moves))
    out.append((api.DealRequest, {"variant": "samba", "players": 4, "seed": "18446744073709551615",
                                  "options": {"target": "5000"}, "deck": ["AS", "JK"]}))
    out.append((api.DealRequest, {"variant": "classic", "players": 4, "seed": 12, "viewSeat": -1}))
    return out


def test_real_request_bodies_parse_alike() -> None:
    accepted = 0
    for cls, data in _real_bodies():
        outcome = _agree(json.dumps(data).encode(), cls)
        accepted += outcome[0] == "ok"
    assert accepted > 500


@pytest.mark.parametrize("body", [
    b"", b"null", b"[]", b"{", b'{"snapshot": 5}', b'{"snapshot": "@@"}', b'{"snapshot": null}',
    b'{"snapshot": "AA==", "snapshot": "AA=="}', b'{"snapshot": "AA==", "Snapshot": "AA=="}',
    b'{"move": {"draw": {}, "discard": {"card": "4D"}}}', b'{"seat": 1.0}', b'{"seat": "1"}',
    b'{"seat": true}', b'{"seat": 4294967296}', b'{"expectedSeq": -1}', b'{"nope": 1}',
    b'{"move": {"text": "\\ud800"}}', b'\xff\xfe{}', b'{"snapshot": "YWJj"}',
    b'{"snapshot": "YW-_"}', b'{"move": {"meld": {"groups": [null]}}}',
    b'{"expected_seq": 3, "expectedSeq": 3}', b'{"move": []}', b'{"move": {"layOff": {"seat": 1,'
    b' "meld": 0, "card": "9D"}}}',
    # integers as text: only plain decimals are read on the fast path
    b'{"expectedSeq": "0"}', b'{"expectedSeq": "007"}', b'{"expectedSeq": "-0"}',
    b'{"expectedSeq": "-1"}', b'{"expectedSeq": "18446744073709551615"}',
    b'{"expectedSeq": "18446744073709551616"}', b'{"expectedSeq": "99999999999999999999999"}',
    b'{"expectedSeq": "1e3"}', b'{"expectedSeq": " 1"}', b'{"expectedSeq": "1_000"}',
    b'{"expectedSeq": "+1"}', b'{"expectedSeq": "\\uff11"}', b'{"expectedSeq": ""}',
    b'{"seed": "-9223372036854775809"}', b'{"players": "2147483648"}', b'{"players": "-4"}',
    b'{"seat": "2", "viewSeat": "-1"}', b'{"snapshot": "AA==", "seat": "1"}',
])
def test_edge_bodies_parse_alike(body: bytes) -> None:
    _agree(body, api.ApplyMoveRequest)
    _agree(body, api.DealRequest)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["snapshot", "move", "text", "draw", "discard", "card", "seat", "variant",
                         "players", "seed", "options", "deck", "viewSeat", "view_seat", "meld",
                         "groups", "cards", "layOff", "meld", "expectedSeq", "position", "x"]),
        inner, max_size=4),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(cls=st.sampled_from(REQUESTS), data=_JSON)
def test_generated_bodies_parse_alike(cls: type[Message], data: Any) -> None:
    _agree(json.dumps(data).encode(), cls)


def test_plain_bodies_take_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bodies hosts send never reach json_format (else the fast path is dead code)."""
    def refuse(*args: Any, **kwargs: Any) -> Message:
        raise AssertionError("fell back to json_format")

    monkeypatch.setattr(jsonparse.json_format, "Parse", refuse)
    for cls, data in _real_bodies() + _documented_bodies():
        jsonparse.parse(json.dumps(data).encode(), cls())


def _documented_bodies() -> list[tuple[type[Message], dict[str, Any]]]:
    """The request bodies /openapi.json and docs/api.md show (64-bit integers as strings)."""
    snap = base64.b64encode(bytes(range(256)) * 3).decode()
    out: list[tuple[type[Message], dict[str, Any]]] = []
    for method in api.DESCRIPTOR.services_by_name["CanastaEngine"].methods:
        body = {k: snap if k == "snapshot" else v
                for k, v in examples.EXAMPLES[method.name][0].items()}
        out.append((GetMessageClass(method.input_type), body))
    return [*out,
            (api.DealRequest, {"variant": "classic", "players": 4, "seed": "8236417",
                               "options": {"target_score": "1500"}}),
            (api.ApplyMoveRequest, {"snapshot": snap, "move": {"text": "draw", "draw": {}},
                                    "expectedSeq": "0"}),
            (api.SuggestMoveRequest, {"snapshot": snap, "level": "greedy", "seed": "42"})]


def test_documented_bodies_parse_alike() -> None:
    for cls, data in _documented_bodies():
        assert _agree(json.dumps(data).encode(), cls)[0] == "ok", data


def _snapshot_agrees(body: bytes) -> bytes | None:
    """``snapshot_only`` reads a body only as json_format reads it into LegalMovesRequest."""
    lean = jsonparse.snapshot_only(body)
    if lean is not None:
        assert _outcome(body, api.LegalMovesRequest, json_format.Parse) == (
            "ok", api.LegalMovesRequest(snapshot=lean).SerializeToString(deterministic=True))
    return lean


@pytest.mark.parametrize("body", [
    b"", b"{}", b"null", b'{"snapshot": null}', b'{"snapshot": 5}',
    b'{"snapshot": "AA==", "snapshot": "AA=="}', b'{"snapshot": "AA==", "seat": 1}',
    b'{"Snapshot": "AA=="}', b'["snapshot"]', b'{"snapshot": ["AA=="]}', b'\xff{}',
    b'{"snapshot":"AA==","snapshot" :"AB=="}', b'{"snap\\u0073hot": "AA=="}',
    b'{"snapshot": NaN}', b'{"snapshot": "QUE=", "x": {"snapshot": 1}}',
    b'{"snapshot": "QU\\u0045="}', b'\xef\xbb\xbf{"snapshot": "QUE="}',
])
def test_snapshot_only_leaves_other_bodies_to_the_full_parse(body: bytes) -> None:
    assert _snapshot_agrees(body) is None


@pytest.mark.parametrize("body", [
    b'{"snapshot": "YWJj"}', b'{"snapshot": "YW-_"}', b'{"snapshot": "YWJjZA"}',
    b' {\n "snapshot" : "YWJjZA==" } ', b'{"snapshot": ""}', b'{"snapshot": "YW Jj"}',
    b'{"snapshot": "@@"}',
])
def test_snapshot_only_reads_bodies_of_the_snapshot_alone(body: bytes) -> None:
    """Including what json_format's lenient base64 reads ("@@" is no bytes at all)."""
    assert _snapshot_agrees(body) is not None


@settings(max_examples=200, deadline=None)
@given(data=_JSON)
def test_snapshot_only_agrees_on_generated_bodies(data: Any) -> None:
    _snapshot_agrees(json.dumps(data).encode())
    _snapshot_agrees(json.dumps({"snapshot": data}).encode())
    _snapshot_agrees(json.dumps({"snapshot": data}, ensure_ascii=False).encode())


@settings(max_examples=300, deadline=None)
@given(text=st.text(), space=st.sampled_from(["", " ", "\n\t "]))
def test_snapshot_only_agrees_on_any_string(text: str, space: str) -> None:
    """Whatever the string (base64 or not, any characters), read as json_format reads it."""
    body = f'{space}{{{space}"snapshot"{space}:{space}"{text}"{space}}}{space}'
    _snapshot_agrees(body.encode("utf-8", "surrogatepass"))
    _snapshot_agrees(json.dumps({"snapshot": text}, ensure_ascii=False).encode(
        "utf-8", "surrogatepass"))


@pytest.mark.parametrize(("cls", "body"), [
    # a boolean field takes only true or false (json_format refuses 1 and "true")
    (api.ApplyMoveRequest, b'{"move": {"answer": {"yes": 1}}}'),
    (api.ApplyMoveRequest, b'{"move": {"answer": {"yes": "true"}}}'),
    (api.ApplyMoveRequest, b'{"move": {"answer": {"yes": false}}}'),
    # one field under both its names, outside any oneof
    (api.LegalMovesRequest, b'{"page_size": 5, "pageSize": 5}'),
    (api.LegalMovesRequest, b'{"pageToken": "a", "page_token": "a"}'),
    # a repeated field takes a list only: a string is no list of its characters
    (api.DealRequest, b'{"deck": "AS"}'),
    (api.DealRequest, b'{"deck": {"AS": "JK"}}'),
    # a map takes an object of strings only
    (api.DealRequest, b'{"options": ["target"]}'),
    (api.DealRequest, b'{"options": "target=5000"}'),
    (api.DealRequest, b'{"options": {"target": 5000}}'),
    (api.DealRequest, b'{"options": {"target": "5000", "pairs": "2"}}'),
])
def test_edge_bodies_of_other_field_kinds_parse_alike(cls: type[Message], body: bytes) -> None:
    """Booleans, fields of two names outside a oneof, lists and maps: the kinds of field
    that the ApplyMove and Deal edge bodies above (and the generated ones, rarely) leave
    out."""
    _agree(body, cls)


@pytest.mark.parametrize("body", [
    b'{"seat": 2}', b'{"move": {"text": "draw"}}', b'{"snapshot": "QUE="}',
    b'{"move": {"discard": {"card": "4D"}}}', b'{"expectedSeq": "3"}',
])
def test_a_body_merges_into_a_filled_message_as_json_format_does(body: bytes) -> None:
    """``parse`` merges, as ``json_format.Parse`` does: what the body leaves out of a
    message already filled stays (the fast path and the snapshot-only one alike)."""
    def filled() -> api.ApplyMoveRequest:
        return api.ApplyMoveRequest(snapshot=b"old", seat=1, view_seat=3,
                                    move=game.Move(text="undo"))

    fast, slow = filled(), filled()
    jsonparse.parse(body, fast)
    json_format.Parse(body, slow)
    assert fast == slow and fast.view_seat == 3


@pytest.mark.parametrize(("cls", "body", "found"), [
    # not an object, or not JSON: nothing to name (the body itself is refused)
    (api.DealRequest, b"[]", None), (api.DealRequest, b'"players"', None),
    (api.DealRequest, b"{", None),
    # null is a field's default, in a message field and a repeated one alike
    (api.ApplyMoveRequest, b'{"move": null, "seat": "x"}', "seat"),
    (api.DealRequest, b'{"deck": null, "players": []}', "players"),
    # json_format words a null in a list itself
    (api.DealRequest, b'{"deck": [null]}', None),
    # a map of strings fits, whatever follows it
    (api.DealRequest, b'{"options": {"target": "5000"}, "players": "x"}', "players"),
    (api.DealRequest, b'{"options": {"target": 5000}}', "options"),
    # a repeated field holds a list, even of a string's characters
    (api.DealRequest, b'{"deck": "AS"}', "deck"),
    (api.DealRequest, b'{"deck": ["AS", 7]}', "deck[1]"),
    # a lone surrogate is no base64 text (and no UTF-8: it must not raise)
    (api.LegalMovesRequest, b'{"snapshot": "\\ud800"}', "snapshot"),
    # a string where an object belongs
    (api.ApplyMoveRequest, b'{"move": "draw"}', "move"),
    (api.ApplyMoveRequest, b'{"expectedSeq": "1e3", "seat": 2.0}', None),
    (api.ApplyMoveRequest, b'{"expectedSeq": -1}', "expectedSeq"),
    (api.ApplyMoveRequest, b'{"move": {"answer": {"yes": 1}}}', None),
    # the bounds of a range are in it
    (api.ApplyMoveRequest, b'{"expectedSeq": "18446744073709551615", "seat": -2147483648,'
                           b' "viewSeat": 2147483647, "move": {"text": 7}}',
     "move.text"),
    (api.ApplyMoveRequest, b'{"expectedSeq": 0, "seat": "x"}', "seat"),
    (api.ApplyMoveRequest, b'{"viewSeat": 2147483648}', "viewSeat"),
    (api.ApplyMoveRequest, b'{"seat": -2147483649}', "seat"),
])
def test_misfit_names_the_first_value_its_field_cannot_hold(
        cls: type[Message], body: bytes, found: str | None) -> None:
    """The path of the first value of the wrong type or range, the field the REST gateway's
    refusal names (tests/service/test_bad_input.py; its words: test_refusal_words.py);
    ``None`` where json_format names the field itself (a null in a list, a non-boolean) or
    every value fits."""
    assert jsonparse.misfit(body, cls()) == found
