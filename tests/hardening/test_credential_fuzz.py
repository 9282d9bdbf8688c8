"""Fuzzing the credential itself, on both faces: random, bit-flipped, truncated, extended,
role-swapped, other-version, other-game and other-server tokens, and malformed
``authorization`` values (another scheme, no token, two values).

Each goes with a real snapshot to a random RPC of a game, so nothing but the
credential can be refused: the answer must be exactly the refusal
:func:`~tests.hardening.credentials.expected_refusal` names (UNAUTHENTICATED /
401 ``CREDENTIAL_INVALID``, or ``CREDENTIAL_VERSION_UNSUPPORTED`` /
``CREDENTIAL_KEY_RETIRED`` exactly where the token is of another format version
or well-formed under a key the server does not hold), with ``WWW-Authenticate:
Bearer`` on REST; never a 5xx, never an answer with a state. Deal,
ImportPosition and ListVariants do not read a credential: the same values leave
them answering OK. The deterministic table below pins each reason once.
"""

from __future__ import annotations

import base64
import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import grpc
import httpx
import pytest
from google.protobuf.message import Message
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.api.pb import SERVICE_NAME, api, game
from service.sealing import tokens
from service.sealing.keys import KeyRing, new_key_entry
from tests.hardening.credentials import (
    GAME_METHODS,
    GRPC_ALPHABET,
    OPEN_METHODS,
    REST_ALPHABET,
    bad_values,
    bearer,
    expected_refusal,
)
from tests.hardening.pool import EXAMPLES, Position
from tests.service.helpers import ROUTES, grpc_failure, rest_failure, to_json
from tests.service.servers import Running

BOARD = ("hostToken", "seatTokens", "snapshot", "views", "events", "moves", "position", "sides")


def request(method: str, position: Position) -> Message:
    """A request of ``method`` that only its credential can get refused (a real snapshot;
    the checks before the snapshot opens pass)."""
    snap = position.snapshot
    move = position.moves[0] if position.moves else game.Move(text="draw")
    return {
        "ListVariants": api.ListVariantsRequest(),
        "Deal": api.DealRequest(variant="classic", players=2, seed=1),
        "ImportPosition": api.ImportPositionRequest(position=position.text),
        "LegalMoves": api.LegalMovesRequest(snapshot=snap),
        "ApplyMove": api.ApplyMoveRequest(snapshot=snap, move=move),
        "ScoreHand": api.ScoreHandRequest(snapshot=snap),
        "GetView": api.GetViewRequest(snapshot=snap),
        "NextDeal": api.NextDealRequest(snapshot=snap),
        "ExportPosition": api.ExportPositionRequest(snapshot=snap),
        "ExportRecord": api.ExportRecordRequest(snapshot=snap),
        "SuggestMove": api.SuggestMoveRequest(snapshot=snap, level="random"),
    }[method]


@pytest.fixture(scope="module")
def foreign(server: Running, pool: list[Position]) -> list[str]:
    """Tokens another server would issue for the pool's games: under another key id, and
    under the same key id with other key material."""
    same_id = server.app.core.sealer.keys.sealing.key_id
    out = []
    for entry in (new_key_entry("elsewhere-1"), new_key_entry(same_id)):
        ring = KeyRing.parse(entry)
        for p in pool[:6]:
            game_id = bytes.fromhex(p.game_id.replace("-", ""))
            out.append(tokens.issue(ring, game_id, tokens.HOST_ROLE))
            out.append(tokens.issue(ring, game_id, tokens.seat_role(0)))
    return out


@pytest.fixture(scope="module")
def key_ids(server: Running) -> set[str]:
    return set(server.app.core.sealer.keys.key_ids)


@pytest.fixture(scope="module")
def channel(server: Running) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(server.grpc_target) as ch:
        yield ch


@pytest.fixture(scope="module")
def http(server: Running) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.http_base, timeout=30) as client:
        yield client


def call_grpc(channel: grpc.Channel, method: str, req: Message,
              values: tuple[str, ...]) -> tuple[str, str]:
    """(code, reason) of a call presenting ``values`` as its ``authorization``."""
    try:
        answer = channel.unary_unary(f"/{SERVICE_NAME}/{method}")(
            req.SerializeToString(), metadata=[("authorization", v) for v in values],
            timeout=30)
    except grpc.RpcError as err:
        failure = grpc_failure(err)
        return failure.code, failure.reason
    getattr(api, f"{method}Response").FromString(answer)
    return "OK", ""


def call_rest(http: httpx.Client, method: str, req: Message,
              values: tuple[str, ...]) -> tuple[str, str]:
    verb, path = ROUTES[method]
    headers = [("authorization", v.encode("latin-1")) for v in values]
    if verb == "GET":
        resp = http.get(path, headers=headers)
    else:
        resp = http.post(path, content=to_json(req),
                         headers=[*headers, ("content-type", "application/json")])
    assert resp.status_code < 500, (resp.status_code, resp.text[:300])
    if resp.status_code == 200:
        return "OK", ""
    body = json.loads(resp.content)
    assert set(body) == {"error"}, body  # an error answer carries nothing of the game
    failure = rest_failure(resp)
    if resp.status_code == 401:
        assert resp.headers["www-authenticate"].startswith("Bearer"), resp.headers
    return failure.code, failure.reason


def _answers_as_expected(got: tuple[str, str], method: str, values: tuple[str, ...],
                         key_ids: set[str], position: Position) -> bool:
    """OK where the credential is not read; exactly the refusal the rules name for a bad one;
    and for one of the game's own tokens (a mutation can give one back) anything but a
    credential refusal or a server error (a seat's scope or the rules may still refuse)."""
    if method in OPEN_METHODS:
        return got == ("OK", "")
    reason = expected_refusal(values, key_ids, {position.host_token, *position.seat_tokens})
    if reason is None:
        return got[0] not in ("UNAUTHENTICATED", "INTERNAL", "UNKNOWN")
    return got == ("UNAUTHENTICATED", reason)


@pytest.mark.parametrize("face", ["grpc", "rest"])
def test_bad_credentials_are_refused_exactly(face: str, pool: list[Position], key_ids: set[str],
                                             foreign: list[str], channel: grpc.Channel,
                                             http: httpx.Client) -> None:
    alphabet = GRPC_ALPHABET if face == "grpc" else REST_ALPHABET
    outcomes: Counter[str] = Counter()

    @st.composite
    def cases(draw: st.DrawFn) -> tuple[str, Position, tuple[str, ...]]:
        position = draw(st.sampled_from(pool))
        method = draw(st.sampled_from(GAME_METHODS * 4 + OPEN_METHODS))  # mostly a game's
        values = draw(bad_values(position, pool, foreign, alphabet))
        if face == "rest":  # an HTTP field value has no leading or trailing blanks
            values = tuple(v.strip(" \t") for v in values)
        else:  # gRPC metadata is printable ASCII (the client refuses a tab itself)
            values = tuple(v.replace("\t", " ") for v in values)
        return method, position, values

    @settings(max_examples=4 * EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(case=cases())
    def fuzz(case: tuple[str, Position, tuple[str, ...]]) -> None:
        method, position, values = case
        call = call_grpc if face == "grpc" else call_rest
        got = call(channel if face == "grpc" else http,  # type: ignore[operator]
                   method, request(method, position), values)
        assert _answers_as_expected(got, method, values, key_ids, position), (method, values,
                                                                               got)
        outcomes[got[1] or got[0]] += 1

    fuzz()
    assert sum(outcomes.values()) >= 4 * EXAMPLES, outcomes
    assert outcomes["CREDENTIAL_INVALID"] > EXAMPLES, outcomes
    assert outcomes["OK"] > 0, outcomes  # the open RPCs


def _good_shape(key_id: str, role: str = "host") -> str:
    return f"ct1.{role}.{key_id}.{'A' * 22}"


TABLE: list[tuple[str, Any, str]] = [
    # (what, authorization values (a function of the position's host token), reason)
    ("another scheme", lambda t: (f"Basic {t}",), "CREDENTIAL_INVALID"),
    ("no scheme", lambda t: (t,), "CREDENTIAL_INVALID"),
    ("scheme alone", lambda t: ("Bearer",), "CREDENTIAL_INVALID"),
    ("empty value", lambda t: ("",), "CREDENTIAL_INVALID"),
    ("two values", lambda t: (bearer(t), bearer(t)), "CREDENTIAL_INVALID"),
    ("truncated", lambda t: (bearer(t[:-1]),), "CREDENTIAL_INVALID"),
    ("extended", lambda t: (bearer(t + "A"),), "CREDENTIAL_INVALID"),
    ("trailing word", lambda t: (bearer(t) + " x",), "CREDENTIAL_INVALID"),
    ("seat role, host MAC", lambda t: (bearer(t.replace(".host.", ".s0.")),),
     "CREDENTIAL_INVALID"),
    ("seat 00", lambda t: (bearer(t.replace(".host.", ".s00.")),), "CREDENTIAL_INVALID"),
    ("version ct2", lambda t: (bearer("ct2" + t[3:]),), "CREDENTIAL_VERSION_UNSUPPORTED"),
    ("version ct2 alone", lambda t: (bearer("ct2."),), "CREDENTIAL_INVALID"),
    ("version CT1", lambda t: (bearer("CT1" + t[3:]),), "CREDENTIAL_INVALID"),
    # a version is echoed in the refusal: one of more than four digits is the caller's text
    ("version of 40 digits", lambda t: (bearer("ct" + "9" * 40 + t[3:]),),
     "CREDENTIAL_INVALID"),
    ("unknown key id", lambda t: (bearer(_good_shape("never-held")),),
     "CREDENTIAL_KEY_RETIRED"),
    ("unknown key id, short MAC", lambda t: (bearer(_good_shape("never-held")[:-1]),),
     "CREDENTIAL_INVALID"),
    ("made-up MAC", lambda t: (bearer(t[:-22] + "A" * 22),), "CREDENTIAL_INVALID"),
    # a key id no ring could hold is the caller's own text, not a retired key's name
    ("two tokens in one value", lambda t: (f"{bearer(t)}, {bearer(t)}",), "CREDENTIAL_INVALID"),
    ("key id of markup", lambda t: (bearer(_good_shape("<b>x</b>")),), "CREDENTIAL_INVALID"),
    ("key id too long", lambda t: (bearer(_good_shape("k" * 33)),), "CREDENTIAL_INVALID"),
]


@pytest.mark.parametrize(("what", "values", "reason"), TABLE, ids=[w for w, _, _ in TABLE])
def test_each_refusal(what: str, values: Any, reason: str, pool: list[Position],
                      key_ids: set[str], channel: grpc.Channel, http: httpx.Client) -> None:
    """Each kind of bad credential gets its one reason on both faces and every game RPC, and
    the test's reading of the rules agrees."""
    position = next(p for p in pool if p.moves)
    sent = tuple(values(position.host_token))
    assert expected_refusal(sent, key_ids, {position.host_token}) == reason
    for method in GAME_METHODS:
        req = request(method, position)
        assert call_grpc(channel, method, req, sent) == ("UNAUTHENTICATED", reason), method
        assert call_rest(http, method, req, sent) == ("UNAUTHENTICATED", reason), method


def test_other_games_and_servers_tokens(pool: list[Position], foreign: list[str],
                                        channel: grpc.Channel, http: httpx.Client) -> None:
    """A valid token of game A is CREDENTIAL_INVALID on game B; one another server signed
    under another key id is CREDENTIAL_KEY_RETIRED, under the same key id CREDENTIAL_INVALID."""
    a, b = pool[1], pool[2]
    elsewhere = [t for t in foreign if ".elsewhere-1." in t]
    same_id = [t for t in foreign if ".elsewhere-1." not in t]
    for tokens_, reason in (([a.host_token, *a.seat_tokens], "CREDENTIAL_INVALID"),
                            (elsewhere, "CREDENTIAL_KEY_RETIRED"),
                            (same_id, "CREDENTIAL_INVALID")):
        for token in tokens_:
            for method in GAME_METHODS:
                req = request(method, b)
                assert call_grpc(channel, method, req, (bearer(token),)) == (
                    "UNAUTHENTICATED", reason), (token, method)
                assert call_rest(http, method, req, (bearer(token),)) == (
                    "UNAUTHENTICATED", reason), (token, method)


def test_open_rpcs_do_not_read_a_credential(pool: list[Position], channel: grpc.Channel,
                                            http: httpx.Client) -> None:
    """Deal, ImportPosition and ListVariants answer OK whatever is presented: the caller of
    a Deal becomes the new game's host, and gets its credentials (not the presented ones)."""
    position = pool[3]
    for values in ((), ("Basic x",), (bearer(position.host_token),), ("", "Bearer x")):
        for method in OPEN_METHODS:
            req = request(method, position)
            assert call_grpc(channel, method, req, values) == ("OK", ""), (method, values)
            assert call_rest(http, method, req, values) == ("OK", ""), (method, values)
    dealt = api.DealResponse.FromString(channel.unary_unary(f"/{SERVICE_NAME}/Deal")(
        request("Deal", position).SerializeToString(),
        metadata=[("authorization", bearer(position.host_token))], timeout=30))
    assert dealt.host_token and dealt.host_token != position.host_token
    assert len(dealt.seat_tokens) == 2


def test_a_version_of_other_digits_is_invalid(pool: list[Position], http: httpx.Client) -> None:
    """``ct²`` is no format version: a malformed token, CREDENTIAL_INVALID (REST carries
    Latin-1, so such a token reaches the server), and its text is not echoed as a version."""
    position = pool[1]
    got = call_rest(http, "LegalMoves", request("LegalMoves", position),
                    (bearer("ct\u00b2" + position.host_token[3:]),))
    assert got == ("UNAUTHENTICATED", "CREDENTIAL_INVALID")


def test_refusals_carry_no_detail_of_the_game(pool: list[Position], http: httpx.Client) -> None:
    """A refused credential's answer names its reason and request id only: not the game id,
    the seats, or a token (the MAC of the right one in particular)."""
    position = pool[1]
    game_id = bytes.fromhex(position.game_id.replace("-", ""))
    for token in (position.host_token[:-1] + "B", "ct1.host.x." + "A" * 22):
        resp = http.post("/v1/legal-moves", headers={"authorization": bearer(token),
                                                     "content-type": "application/json"},
                         content=json.dumps({"snapshot": base64.b64encode(
                             position.snapshot).decode()}))
        assert resp.status_code == 401
        text = resp.text
        for secret in (position.game_id, base64.b64encode(game_id).decode(),
                       position.host_token[-22:], *(t[-22:] for t in position.seat_tokens)):
            assert secret not in text, (secret, text)


def test_the_pool_holds_the_servers_credentials(pool: list[Position],
                                                channel: grpc.Channel) -> None:
    """The pool's tokens are the server's own: a host's NextDeal answers the game's
    credentials again, and they are the ones the pool holds for that game."""
    checked = 0
    for position in [p for p in pool if p.over]:
        try:
            answer = api.NextDealResponse.FromString(
                channel.unary_unary(f"/{SERVICE_NAME}/NextDeal")(
                    request("NextDeal", position).SerializeToString(), timeout=30,
                    metadata=[("authorization", bearer(position.host_token))]))
        except grpc.RpcError as err:  # a game that is over deals no next hand
            assert grpc_failure(err).reason == "GAME_OVER", grpc_failure(err)
            continue
        assert answer.host_token == position.host_token
        assert tuple(answer.seat_tokens) == position.seat_tokens
        checked += 1
    assert checked >= 3, checked
