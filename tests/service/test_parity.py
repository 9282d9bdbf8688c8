"""The same request gives the same answer over gRPC and REST.

Fresh snapshots differ by design (a random nonce, and a random game id for a
new game), so those two fields are compared through what they hold: the
exported positions must be equal. Everything else must be identical.
"""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from google.protobuf.message import Message

from service.pb import api, api_grpc, game
from tests.service.helpers import call_grpc, call_rest, ok


def _export(stub: api_grpc.CanastaEngineStub, snapshot: bytes) -> str:
    resp = ok(call_grpc(stub, "ExportPosition", api.ExportPositionRequest(snapshot=snapshot)))
    return str(resp.position)


def _same(stub: api_grpc.CanastaEngineStub, a: Any, b: Any, new_game: bool) -> None:
    if "snapshot" in a.DESCRIPTOR.fields_by_name:  # a fresh snapshot: compare the contents
        assert _export(stub, a.snapshot) == _export(stub, b.snapshot)
        a.ClearField("snapshot")
        b.ClearField("snapshot")
    if new_game:
        a.header.ClearField("game_id")
        b.header.ClearField("game_id")
    assert a == b


def _both(stub: api_grpc.CanastaEngineStub, http: httpx.Client, method: str, request: Message,
          lang: str | None = None, new_game: bool = False) -> Message:
    over_grpc = ok(call_grpc(stub, method, request, lang))
    over_rest = ok(call_rest(http, method, request, lang))
    keep = type(over_grpc)()
    keep.CopyFrom(over_grpc)
    _same(stub, over_grpc, over_rest, new_game)
    return keep


@pytest.mark.parametrize("players", [2, 4, 6])
def test_parity_along_a_game(players: int, stub: api_grpc.CanastaEngineStub,
                             http: httpx.Client) -> None:
    rng = random.Random(players)
    for lang in (None, "ru"):
        _both(stub, http, "ListVariants", api.ListVariantsRequest(), lang)
    deal = _both(stub, http, "Deal", api.DealRequest(
        variant="classic", players=players, seed=players * 13,
        options={"reveal_discard_pile": "true"}), new_game=True)
    snapshot = deal.snapshot
    for _ in range(40):
        legal = _both(stub, http, "LegalMoves", api.LegalMovesRequest(snapshot=snapshot))
        _both(stub, http, "ScoreHand", api.ScoreHandRequest(snapshot=snapshot))
        _both(stub, http, "GetView", api.GetViewRequest(snapshot=snapshot, seat=1))
        moves = [m for m in legal.moves if m.text != "undo"]
        if not moves:
            break
        move = rng.choice(moves)
        request = api.ApplyMoveRequest(snapshot=snapshot, move=move, view_seat=0)
        snapshot = _both(stub, http, "ApplyMove", request).snapshot
    exported = _both(stub, http, "ExportPosition", api.ExportPositionRequest(snapshot=snapshot))
    _both(stub, http, "ImportPosition", api.ImportPositionRequest(position=exported.position),
          new_game=True)


def test_parity_of_next_deal(stub: api_grpc.CanastaEngineStub, http: httpx.Client) -> None:
    position = "\n".join([
        "canasta-position 1", "variant: classic", "players: 2", "phase: hand_over",
        "hand0: *11", "hand1: *11", "stock: *", "melds0: -", "melds1: -", "result: -1 0", ""])
    start = ok(call_grpc(stub, "ImportPosition", api.ImportPositionRequest(position=position)))
    nxt = _both(stub, http, "NextDeal", api.NextDealRequest(snapshot=start.snapshot,
                                                            expected_seq=0))
    assert nxt.header.seq == 1 and nxt.views[0].hand_no == 1
    assert [e.type for e in nxt.events][0] == game.EVENT_TYPE_HAND_DEALT
