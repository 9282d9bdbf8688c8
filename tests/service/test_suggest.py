"""SuggestMove: a bot's legal move for the awaited seat (or the caller's seat), that
ApplyMove accepts as it is."""

from __future__ import annotations

import re

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.variants import VARIANTS
from service.api.core import Call, Core
from service.api.pb import api, api_grpc
from service.sealing.keys import KeyRing, new_key_entry
from service.sealing.snapshot import Sealer
from tests.service.helpers import Failure, call_grpc, call_rest, ok

GAMES = [(v, p) for v, p in [("classic", 2), ("classic", 3), ("classic", 4), ("classic", 6),
                             ("samba", 4), ("bolivia", 4), ("bolivia_sevens", 4),
                             ("may_i", 4)]
         if v in VARIANTS]
CORE = Core(Sealer(KeyRing.parse(new_key_entry("suggest")), 1 << 16, 256))
CALL = Call()


def _as(token: str) -> Call:
    return Call(authorization=(f"Bearer {token}",))


def _deal(variant: str, players: int, seed: int) -> api.DealResponse:
    resp = CORE.handle("Deal", api.DealRequest(variant=variant, players=players, seed=seed),
                       CALL)
    assert isinstance(resp, api.DealResponse)
    return resp


@pytest.mark.parametrize("variant,players", GAMES, ids=[f"{v}-{p}" for v, p in GAMES])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), bot_seed=st.integers(0, 2**64 - 1),
       levels=st.lists(st.sampled_from(["random", "greedy", ""]), min_size=1, max_size=4))
def test_every_suggestion_is_accepted(variant: str, players: int, seed: int, bot_seed: int,
                                      levels: list[str]) -> None:
    """Along a whole hand, each seat's move is SuggestMove's answer for that seat, asked
    and applied with the seat's own credential as it came back (typed and text):
    ApplyMove accepts every one, for the seat it named."""
    deal = _deal(variant, players, seed)
    snapshot, seats, awaited = deal.snapshot, deal.seat_tokens, deal.views[0].awaited
    for ply in range(3000):
        level = levels[ply % len(levels)]
        hint = CORE.handle("SuggestMove", api.SuggestMoveRequest(
            snapshot=snapshot, level=level, seed=bot_seed), _as(seats[awaited]))
        assert isinstance(hint, api.SuggestMoveResponse)
        assert hint.level == (level or "greedy") and hint.seat == awaited
        assert hint.move.text
        done = CORE.handle("ApplyMove", api.ApplyMoveRequest(
            snapshot=snapshot, move=hint.move, seat=hint.seat), _as(seats[awaited]))
        assert isinstance(done, api.ApplyMoveResponse)
        assert done.move.text == hint.move.text and done.seat == hint.seat
        snapshot, awaited = done.snapshot, done.awaited
        if done.hand_over:
            return
    raise AssertionError("the hand did not end")


def test_over_both_transports(stub: api_grpc.CanastaEngineStub, http: httpx.Client) -> None:
    deal = ok(call_grpc(stub, "Deal", api.DealRequest(variant="classic", players=4, seed=21)))
    request = api.SuggestMoveRequest(snapshot=deal.snapshot, level="greedy", seed=3)
    by_grpc = ok(call_grpc(stub, "SuggestMove", request, token=deal.host_token))
    by_rest = ok(call_rest(http, "SuggestMove", request, token=deal.host_token))
    assert by_grpc == by_rest  # same answer, and deterministic
    # the seat to move gets the same advice: it is made from that seat's knowledge alone
    assert ok(call_rest(http, "SuggestMove", request, token=deal.seat_tokens[0])) == by_grpc
    assert by_grpc.seat == 0 and by_grpc.level == "greedy"
    assert by_grpc.move.text in ("draw", "ask") and by_grpc.move.WhichOneof("kind")
    # the REST body of the docs: {snapshot, level, seed}
    bearer = {"authorization": f"Bearer {deal.seat_tokens[0]}"}
    raw = http.post("/v1/suggest-move", json={"snapshot": _b64(deal.snapshot),
                                              "level": "random", "seed": "77"}, headers=bearer)
    assert raw.status_code == 200, raw.text
    body = raw.json()
    assert set(body) == {"seat", "move", "level"} and body["level"] == "random"
    applied = http.post("/v1/apply-move", json={"snapshot": _b64(deal.snapshot),
                                                "move": body["move"]}, headers=bearer)
    assert applied.status_code == 200 and applied.json()["move"] == body["move"]


def _b64(blob: bytes) -> str:
    import base64

    return base64.b64encode(blob).decode()


def test_refusals(stub: api_grpc.CanastaEngineStub, http: httpx.Client) -> None:
    deal = ok(call_grpc(stub, "Deal", api.DealRequest(variant="classic", players=2, seed=8)))
    host = deal.host_token
    for call in (lambda r: call_grpc(stub, "SuggestMove", r, token=host),
                 lambda r: call_rest(http, "SuggestMove", r, token=host)):
        bad_level = call(api.SuggestMoveRequest(snapshot=deal.snapshot, level="genius"))
        assert isinstance(bad_level, Failure)
        assert (bad_level.code, bad_level.reason, bad_level.fields) == (
            "INVALID_ARGUMENT", "REQUEST_INVALID", ["level"])
        tampered = call(api.SuggestMoveRequest(snapshot=deal.snapshot[:-1] + b"x"))
        assert isinstance(tampered, Failure) and tampered.reason == "SNAPSHOT_INVALID"
        missing = call(api.SuggestMoveRequest())
        assert isinstance(missing, Failure) and missing.code == "INVALID_ARGUMENT"
        no_seat = call(api.SuggestMoveRequest(snapshot=deal.snapshot, seat=5))
        assert isinstance(no_seat, Failure) and (no_seat.code, no_seat.reason) == (
            "INVALID_ARGUMENT", "BAD_SEAT")
        # seat 1 is not to move: no advice for it, from the host or from seat 1 itself
        waiting = call(api.SuggestMoveRequest(snapshot=deal.snapshot, seat=1))
        assert isinstance(waiting, Failure) and waiting.reason == "NOT_YOUR_TURN"
    waiting = call_rest(http, "SuggestMove", api.SuggestMoveRequest(snapshot=deal.snapshot),
                        token=deal.seat_tokens[1])
    assert isinstance(waiting, Failure) and waiting.reason == "NOT_YOUR_TURN"
    # a finished hand: nobody is to move
    snapshot = deal.snapshot
    while True:
        hint = ok(call_grpc(stub, "SuggestMove", api.SuggestMoveRequest(snapshot=snapshot),
                            token=host))
        done = ok(call_grpc(stub, "ApplyMove", api.ApplyMoveRequest(snapshot=snapshot,
                                                                     move=hint.move), token=host))
        snapshot = done.snapshot
        if done.hand_over:
            break
    over = call_grpc(stub, "SuggestMove", api.SuggestMoveRequest(snapshot=snapshot), token=host)
    assert isinstance(over, Failure)
    assert (over.code, over.reason) in (("FAILED_PRECONDITION", "HAND_OVER"),
                                        ("FAILED_PRECONDITION", "GAME_OVER"))


def test_metrics_count_suggestions(stub: api_grpc.CanastaEngineStub, http: httpx.Client) -> None:
    deal = ok(call_grpc(stub, "Deal", api.DealRequest(variant="classic", players=4, seed=2)))
    ok(call_grpc(stub, "SuggestMove", api.SuggestMoveRequest(snapshot=deal.snapshot,
                                                             level="random"),
                 token=deal.host_token))
    text = http.get("/metrics").text
    assert re.search(r'canasta_suggestions_total\{level="random",variant="classic"\} [1-9]',
                     text)
    assert 'grpc_method="SuggestMove"' in text


def test_the_expert_level_and_its_budget(stub: api_grpc.CanastaEngineStub,
                                         http: httpx.Client) -> None:
    """The expert's budget is clamped to its maximum (the answer says what ran) and a
    budget below 1 is a typed refusal on ``budget``, over both transports."""
    from engine.expert import MAX_BUDGET

    deal = ok(call_grpc(stub, "Deal", api.DealRequest(variant="classic", players=4, seed=21)))
    token = deal.seat_tokens[0]
    huge = api.SuggestMoveRequest(snapshot=deal.snapshot, level="expert", seed=3, budget=10**6)
    most = api.SuggestMoveRequest(snapshot=deal.snapshot, level="expert", seed=3,
                                  budget=MAX_BUDGET)
    by_grpc = ok(call_grpc(stub, "SuggestMove", huge, token=token))
    assert (by_grpc.level, by_grpc.budget, by_grpc.seat) == ("expert", MAX_BUDGET, 0)
    assert ok(call_rest(http, "SuggestMove", most, token=token)) == by_grpc
    applied = ok(call_grpc(stub, "ApplyMove", api.ApplyMoveRequest(
        snapshot=deal.snapshot, move=by_grpc.move), token=token))
    assert applied.move.text == by_grpc.move.text
    for level in ("expert", "greedy"):
        for budget in (0, -3):
            request = api.SuggestMoveRequest(snapshot=deal.snapshot, level=level, budget=budget)
            for bad in (call_grpc(stub, "SuggestMove", request, token=token),
                        call_rest(http, "SuggestMove", request, token=token)):
                assert isinstance(bad, Failure)
                assert (bad.code, bad.reason, bad.fields) == (
                    "INVALID_ARGUMENT", "REQUEST_INVALID", ["budget"])
