"""A deal from a caller's ``deck`` is marked ``stacked`` in the sealed header and in every
answer's ``SnapshotHeader``, as ``imported`` is, and no later snapshot of the game drops it
(step 10: a tournament host must tell a stacked deal from a shuffled one)."""

from __future__ import annotations

from typing import Any

import httpx

from engine.cards import CODES
from engine.deck import ordered_deck
from engine.game import rules_for
from service.api.pb import api, game
from service.sealing.snapshot import read_header
from tests.service.helpers import Call, Failure, ok


def _deck(players: int = 2) -> list[str]:
    return [CODES[c] for c in ordered_deck(rules_for("classic", players))]


def _stacked(answer: Any) -> bool:
    """The flag as the answer shows it, checked against the snapshot's own clear header."""
    assert read_header(answer.snapshot)[0].stacked is answer.header.stacked
    return bool(answer.header.stacked)


def _to_hand_over(call: Call, answer: Any, host: str) -> list[Any]:
    """Draw and discard (as the host, from the answers' views) until the hand ends; every
    ApplyMove answer on the way."""
    answers = []
    for _ in range(600):
        awaited = next(v for v in answer.views if v.legal_moves)
        moves = list(awaited.legal_moves)
        pick = next((t for t in ("draw", "decline", "end") if t in moves), None) or next(
            (t for t in moves if t.startswith(("discard", "out", "no", "yes"))), moves[0])
        answer = ok(call("ApplyMove", api.ApplyMoveRequest(
            snapshot=answer.snapshot, move=game.Move(text=pick)), token=host))
        answers.append(answer)
        if answer.hand_over:
            return answers
    raise AssertionError("the hand did not end")


def test_a_deck_marks_the_game_for_good(call: Call) -> None:
    """Deal with a deck: stacked. Every move keeps it, and so does a NextDeal without a
    deck (the next hand is shuffled, but the game had a stacked hand)."""
    deal = ok(call("Deal", api.DealRequest(variant="classic", players=2, deck=_deck())))
    assert _stacked(deal) and not deal.header.imported
    played = _to_hand_over(call, deal, deal.host_token)
    assert all(_stacked(a) for a in played)
    nxt = ok(call("NextDeal", api.NextDealRequest(snapshot=played[-1].snapshot),
                  token=deal.host_token))
    assert _stacked(nxt) and nxt.views[0].hand_no == 1
    legal = ok(call("LegalMoves", api.LegalMovesRequest(snapshot=nxt.snapshot),
                    token=deal.host_token))
    moved = ok(call("ApplyMove", api.ApplyMoveRequest(snapshot=nxt.snapshot,
                                                      move=legal.moves[0]),
                    token=deal.host_token))
    assert _stacked(moved)
    exported = ok(call("ExportPosition", api.ExportPositionRequest(snapshot=moved.snapshot),
                       token=deal.host_token))
    assert exported.header.stacked


def test_a_seeded_game_is_not_stacked_until_a_deck_deals(call: Call) -> None:
    """A seeded Deal and its moves are not stacked; a NextDeal with a deck makes the game
    stacked from then on."""
    deal = ok(call("Deal", api.DealRequest(variant="classic", players=2, seed=8)))
    assert not _stacked(deal)
    played = _to_hand_over(call, deal, deal.host_token)
    assert not any(_stacked(a) for a in played)
    shuffled = ok(call("NextDeal", api.NextDealRequest(snapshot=played[-1].snapshot),
                       token=deal.host_token))
    assert not _stacked(shuffled)
    stacked = ok(call("NextDeal", api.NextDealRequest(snapshot=played[-1].snapshot,
                                                      deck=_deck()), token=deal.host_token))
    assert _stacked(stacked)
    legal = ok(call("LegalMoves", api.LegalMovesRequest(snapshot=stacked.snapshot),
                    token=deal.host_token))
    moved = ok(call("ApplyMove", api.ApplyMoveRequest(snapshot=stacked.snapshot,
                                                      move=legal.moves[0]),
                    token=deal.host_token))
    assert _stacked(moved)


def test_the_flag_cannot_be_cleared_or_forged(call: Call) -> None:
    """Flipping the stacked bit of the clear header, either way, fails the seal."""
    stacked = ok(call("Deal", api.DealRequest(variant="classic", players=2, deck=_deck())))
    seeded = ok(call("Deal", api.DealRequest(variant="classic", players=2, seed=3)))
    for deal in (stacked, seeded):
        blob = deal.snapshot
        flipped = blob[:3] + bytes((blob[3] ^ 0x02,)) + blob[4:]
        assert read_header(flipped)[0].stacked is not deal.header.stacked
        refused = call("LegalMoves", api.LegalMovesRequest(snapshot=flipped),
                       token=deal.host_token)
        assert isinstance(refused, Failure)
        assert (refused.code, refused.reason) == ("INVALID_ARGUMENT", "SNAPSHOT_INVALID")


def test_rest_json_shows_the_flag(http: httpx.Client) -> None:
    body = {"variant": "classic", "players": 2, "deck": _deck()}
    header = http.post("/v1/deal", json=body).json()["header"]
    assert header["stacked"] is True and header["imported"] is False
    seeded = http.post("/v1/deal", json={"variant": "classic", "players": 2}).json()
    assert seeded["header"]["stacked"] is False
