"""SuggestMove: a bot's legal move for the awaited seat, that ApplyMove accepts as it is."""

from __future__ import annotations

import re

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.variants import VARIANTS
from service.core import Call, Core
from service.keys import KeyRing, new_key_entry
from service.pb import api, api_grpc
from service.snapshot import Sealer
from tests.service.helpers import Failure, call_grpc, call_rest, ok

GAMES = [(v, p) for v, p in [("classic", 2), ("classic", 3), ("classic", 4), ("classic", 6),
                             ("samba", 4), ("bolivia", 4), ("bolivia_sevens", 4),
                             ("may_i", 4)]
         if v in VARIANTS]
CORE = Core(Sealer(KeyRing.parse(new_key_entry("suggest")), 1 << 16, 256))
CALL = Call()


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
    """Along a whole hand, each seat's move is SuggestMove's answer, applied as it came
    back (typed and text): ApplyMove accepts every one, for the seat it named."""
    snapshot = _deal(variant, players, seed).snapshot
    for ply in range(3000):
        level = levels[ply % len(levels)]
        hint = CORE.handle("SuggestMove", api.SuggestMoveRequest(
            snapshot=snapshot, level=level, seed=bot_seed), CALL)
        assert isinstance(hint, api.SuggestMoveResponse)
        assert hint.level == (level or "greedy")
        assert hint.move.text
        done = CORE.handle("ApplyMove", api.ApplyMoveRequest(
            snapshot=snapshot, move=hint.move, seat=hint.seat), CALL)
        assert isinstance(done, api.ApplyMoveResponse)
        assert done.move.text == hint.move.text and done.seat == hint.seat
        snapshot = done.snapshot
        if done.hand_over:
            return
    raise AssertionError("the hand did not end")


def test_over_both_transports(stub: api_grpc.CanastaEngineStub, http: httpx.Client) -> None:
    deal = ok(call_grpc(stub, "Deal", api.DealRequest(variant="classic", players=4, seed=21)))
    request = api.SuggestMoveRequest(snapshot=deal.snapshot, level="greedy", seed=3)
    by_grpc = ok(call_grpc(stub, "SuggestMove", request))
    by_rest = ok(call_rest(http, "SuggestMove", request))
    assert by_grpc == by_rest  # same answer, and deterministic
    assert by_grpc.seat == 0 and by_grpc.level == "greedy"
    assert by_grpc.move.text in ("draw", "ask") and by_grpc.move.WhichOneof("kind")
    # the REST body of the docs: {snapshot, level, seed}
    raw = http.post("/v1/suggest-move", json={"snapshot": _b64(deal.snapshot),
                                              "level": "random", "seed": "77"})
    assert raw.status_code == 200, raw.text
    body = raw.json()
    assert set(body) == {"seat", "move", "level"} and body["level"] == "random"
    applied = http.post("/v1/apply-move", json={"snapshot": _b64(deal.snapshot),
                                                "move": body["move"]})
    assert applied.status_code == 200 and applied.json()["move"] == body["move"]


def _b64(blob: bytes) -> str:
    import base64

    return base64.b64encode(blob).decode()


def test_refusals(stub: api_grpc.CanastaEngineStub, http: httpx.Client) -> None:
    deal = ok(call_grpc(stub, "Deal", api.DealRequest(variant="classic", players=2, seed=8)))
    for call in (lambda r: call_grpc(stub, "SuggestMove", r),
                 lambda r: call_rest(http, "SuggestMove", r)):
        bad_level = call(api.SuggestMoveRequest(snapshot=deal.snapshot, level="genius"))
        assert isinstance(bad_level, Failure)
        assert (bad_level.code, bad_level.reason, bad_level.fields) == (
            "INVALID_ARGUMENT", "REQUEST_INVALID", ["level"])
        tampered = call(api.SuggestMoveRequest(snapshot=deal.snapshot[:-1] + b"x"))
        assert isinstance(tampered, Failure) and tampered.reason == "SNAPSHOT_INVALID"
        missing = call(api.SuggestMoveRequest())
        assert isinstance(missing, Failure) and missing.code == "INVALID_ARGUMENT"
    # a finished hand: nobody is to move
    snapshot = deal.snapshot
    while True:
        hint = ok(call_grpc(stub, "SuggestMove", api.SuggestMoveRequest(snapshot=snapshot)))
        done = ok(call_grpc(stub, "ApplyMove", api.ApplyMoveRequest(snapshot=snapshot,
                                                                     move=hint.move)))
        snapshot = done.snapshot
        if done.hand_over:
            break
    over = call_grpc(stub, "SuggestMove", api.SuggestMoveRequest(snapshot=snapshot))
    assert isinstance(over, Failure)
    assert (over.code, over.reason) in (("FAILED_PRECONDITION", "HAND_OVER"),
                                        ("FAILED_PRECONDITION", "GAME_OVER"))


def test_metrics_count_suggestions(stub: api_grpc.CanastaEngineStub, http: httpx.Client) -> None:
    deal = ok(call_grpc(stub, "Deal", api.DealRequest(variant="classic", players=4, seed=2)))
    ok(call_grpc(stub, "SuggestMove", api.SuggestMoveRequest(snapshot=deal.snapshot,
                                                             level="random")))
    text = http.get("/metrics").text
    assert re.search(r'canasta_suggestions_total\{level="random",variant="classic"\} [1-9]',
                     text)
    assert 'grpc_method="SuggestMove"' in text
