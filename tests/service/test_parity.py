"""The same request gives the same answer over gRPC and REST.

Fresh snapshots differ by design (a random nonce, and a random game id for a
new game), so those two fields are compared through what they hold: the
exported positions must be equal; a new game's credentials differ with its id,
and are compared by the role each names. Everything else must be identical, for
every role: the host, a seat and a spectator.
"""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from google.protobuf.message import Message

from service.api.pb import api, api_grpc, game
from tests.service.helpers import call_grpc, call_rest, ok


def _export(stub: api_grpc.CanastaEngineStub, snapshot: bytes, host: str) -> str:
    resp = ok(call_grpc(stub, "ExportPosition", api.ExportPositionRequest(snapshot=snapshot),
                        token=host))
    return str(resp.position)


def _roles(tokens: Any) -> list[str]:
    """What each credential grants, without its MAC (``ct1.s2.<key id>``)."""
    return [t.rsplit(".", 1)[0] for t in tokens]


def _same(stub: api_grpc.CanastaEngineStub, a: Any, b: Any, new_game: bool,
          host: str | None) -> None:
    fields = a.DESCRIPTOR.fields_by_name
    if "snapshot" in fields:  # a fresh snapshot: compare the contents
        a_host = a.host_token if new_game else host
        b_host = b.host_token if new_game else host
        assert a_host and b_host
        assert _export(stub, a.snapshot, a_host) == _export(stub, b.snapshot, b_host)
        a.ClearField("snapshot")
        b.ClearField("snapshot")
    if new_game:
        a.header.ClearField("game_id")
        b.header.ClearField("game_id")
        assert _roles([a.host_token, *a.seat_tokens]) == _roles([b.host_token, *b.seat_tokens])
        for m in (a, b):
            m.ClearField("host_token")
            m.ClearField("seat_tokens")
    assert a == b


def _both(stub: api_grpc.CanastaEngineStub, http: httpx.Client, method: str, request: Message,
          lang: str | None = None, new_game: bool = False, token: str | None = None,
          host: str | None = None) -> Message:
    over_grpc = ok(call_grpc(stub, method, request, lang, token=token))
    over_rest = ok(call_rest(http, method, request, lang, token=token))
    keep = type(over_grpc)()
    keep.CopyFrom(over_grpc)
    _same(stub, over_grpc, over_rest, new_game, host)
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
    snapshot, host, seats = deal.snapshot, deal.host_token, list(deal.seat_tokens)
    for i in range(40):
        legal = _both(stub, http, "LegalMoves", api.LegalMovesRequest(snapshot=snapshot),
                      token=host)
        mover = seats[legal.seat]
        assert _both(stub, http, "LegalMoves", api.LegalMovesRequest(snapshot=snapshot),
                     token=mover) == legal
        for token in (host, seats[1], None):  # a seat and a spectator see less
            _both(stub, http, "ScoreHand", api.ScoreHandRequest(snapshot=snapshot), token=token)
            _both(stub, http, "GetView", api.GetViewRequest(snapshot=snapshot), token=token)
        _both(stub, http, "GetView", api.GetViewRequest(snapshot=snapshot, seat=1), token=host)
        moves = [m for m in legal.moves if m.text != "undo"]
        if not moves:
            break
        move = rng.choice(moves)
        if i % 2:  # the host for the mover, with one view; or the mover itself
            request = api.ApplyMoveRequest(snapshot=snapshot, move=move, view_seat=0)
            snapshot = _both(stub, http, "ApplyMove", request, token=host, host=host).snapshot
        else:
            request = api.ApplyMoveRequest(snapshot=snapshot, move=move)
            snapshot = _both(stub, http, "ApplyMove", request, token=mover, host=host).snapshot
    exported = _both(stub, http, "ExportPosition", api.ExportPositionRequest(snapshot=snapshot),
                     token=host)
    _both(stub, http, "ImportPosition", api.ImportPositionRequest(position=exported.position),
          new_game=True)


def test_parity_of_next_deal(stub: api_grpc.CanastaEngineStub, http: httpx.Client) -> None:
    position = "\n".join([
        "canasta-position 1", "variant: classic", "players: 2", "phase: hand_over",
        "hand0: *11", "hand1: *11", "stock: *", "melds0: -", "melds1: -", "result: -1 0", ""])
    start = ok(call_grpc(stub, "ImportPosition", api.ImportPositionRequest(position=position)))
    nxt = _both(stub, http, "NextDeal", api.NextDealRequest(snapshot=start.snapshot,
                                                            expected_seq=0),
                token=start.host_token, host=start.host_token)
    assert nxt.header.seq == 1 and nxt.views[0].hand_no == 1
    assert [e.type for e in nxt.events][0] == game.EVENT_TYPE_HAND_DEALT
