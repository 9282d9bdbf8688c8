"""Who plays with whom, in every view: in classic cutthroat for three (CL-P3-2) the first
seat to take the pile plays alone and the two others become partners, their melds combined.
The view's sides are the scoring teams, one seat each, so it showed the pair's melds under
one partner and none under the other, and nothing said who was the lone hand: a client could
not tell that two seats were partners. ``SeatView.meld_side`` and ``lone_hand`` say it, the
same for every role (public: the whole table saw who took the pile).
"""

from __future__ import annotations

from typing import Any

import pytest

from service.api.pb import api
from tests.service.helpers import Call, ok

CUTTHROAT = {"p3_mode": "cutthroat"}
PLIES = 300


def _every_role_sees(call: Call, deal: Any, snapshot: bytes) -> tuple[list[int], int]:
    """The views' (meld_side, lone_hand), the same for the host, a spectator with no
    credential and each seat with its own."""
    seen = set()
    for seat, token in [(-1, deal.host_token), (-1, None), *enumerate(deal.seat_tokens)]:
        got = ok(call("GetView", api.GetViewRequest(snapshot=snapshot, seat=seat),
                      token=token))
        seen |= {(tuple(v.meld_side), v.lone_hand) for v in got.views}
    assert len(seen) == 1, seen
    sides, lone = seen.pop()
    return list(sides), lone


def _play_to_first_take(call: Call, deal: Any) -> tuple[Any, int]:
    """SuggestMove's moves, each applied, up to the first take of the pile: the answer that
    took it and the seat that did."""
    snapshot, awaited = deal.snapshot, deal.views[0].awaited
    for _ in range(PLIES):
        token = deal.seat_tokens[awaited]
        hint = ok(call("SuggestMove", api.SuggestMoveRequest(snapshot=snapshot, level="greedy",
                                                             seed=5), token=token))
        done = ok(call("ApplyMove", api.ApplyMoveRequest(snapshot=snapshot, move=hint.move,
                                                         seat=hint.seat), token=token))
        assert not done.hand_over, "the hand ended before anyone took the pile"
        if hint.move.text.startswith("take"):
            return done, hint.seat
        snapshot, awaited = done.snapshot, done.awaited
    raise AssertionError("nobody took the pile")


def test_every_view_says_who_is_the_lone_hand_and_who_are_partners(call: Call) -> None:
    """Before the first take each seat melds on its own side and there is no lone hand;
    from the take on, every role's view names the taker the lone hand, and the two others
    give one meld side, the lower seat's, which holds the pair's melds (the other's none)."""
    deal = ok(call("Deal", api.DealRequest(variant="classic", players=3, seed=4,
                                           options=CUTTHROAT)))
    assert _every_role_sees(call, deal, deal.snapshot) == ([0, 1, 2], -1)
    took, lone = _play_to_first_take(call, deal)
    pair = [s for s in range(3) if s != lone]
    expected = [lone if s == lone else pair[0] for s in range(3)]
    assert _every_role_sees(call, deal, took.snapshot) == (expected, lone)
    view = took.views[0]
    assert list(view.meld_side) == expected and view.lone_hand == lone
    assert view.sides[lone].melds  # the taker's melds, made with the pile
    assert not view.sides[pair[1]].melds


@pytest.mark.parametrize(("variant", "players", "sides"),
                         [("classic", 3, [0, 1, 2]), ("classic", 4, [0, 1, 0, 1]),
                          ("may_i", 4, [0, 1, 2, 3])], ids=["classic3", "classic4", "may_i4"])
def test_other_games_meld_by_team_with_no_lone_hand(call: Call, variant: str, players: int,
                                                    sides: list[int]) -> None:
    """Outside cutthroat a seat's meld side is its team, and no seat plays alone."""
    deal = ok(call("Deal", api.DealRequest(variant=variant, players=players, seed=4)))
    assert _every_role_sees(call, deal, deal.snapshot) == (sides, -1)
