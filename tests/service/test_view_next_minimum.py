"""The next hand's initial-meld minimum at a hand's end, in every view: a side's
``minimum`` is the hand in play's, and the next hand's comes from the side's new total by
bands that depend on the game and its options (CL-MIN-1, CL-P6-7, SA-INIT-1, BO-INIT-1,
SV-INIT-1), which no client can derive from the total. Positions at a hand's end are
written by the engine (the stock ran out at the deal: every side loses its hand's cards),
from chosen scores, and imported.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from engine import new_game
from engine.notation import export_position
from engine.scoring import hand_result
from engine.state import Phase, evolve
from service.api.pb import api
from tests.service.helpers import Call, ok

Mins = list[int]  # per side

# (variant, players, options, scores before the hand) -> the hand's minimums and the next
# hand's (the new totals: classic 1150 and -205; Samba 6780 and 1055, 7280 and 2655;
# Bolivia with sevens 2685 and -2605; six players 6500 and -710)
ENDS: list[tuple[str, int, dict[str, str], tuple[int, ...], Mins, Mins]] = [
    ("classic", 4, {}, (1600, 10), [90, 50], [50, 15]),  # CL-MIN-1: 15 below zero
    ("samba", 4, {"samba.min_7000": "160"}, (7300, 1600), [160, 90], [120, 50]),  # SA-INIT-1
    ("samba", 4, {"samba.min_7000": "160"}, (7800, 3200), [160, 120], [160, 90]),
    ("bolivia_sevens", 4, {}, (3700, 10), [100, 60], [60, 60]),  # SV-INIT-1
    ("classic", 6, {"p6_min150_threshold": "6000"}, (7000, 0), [150, 50], [150, 15]),  # CL-P6-7
]


def _hand_over(variant: str, players: int, options: dict[str, str], scores: tuple[int, ...],
               phase: Phase = Phase.HAND_OVER) -> str:
    """A position of a hand that ended at the deal (the stock ran out), from ``scores``."""
    state = evolve(new_game(variant, players, seed=5, options=options), scores=scores)
    return export_position(evolve(state, result=hand_result(state, -1, False), phase=phase))


def _every_view(call: Call, snapshot: bytes, tokens: list[str], host: str) -> list[Any]:
    """The host's, a spectator's and each seat's view of ``snapshot``."""
    views = list(ok(call("GetView", api.GetViewRequest(snapshot=snapshot), token=host)).views)
    for seat, token in [(-1, None), *enumerate(tokens)]:
        views += ok(call("GetView", api.GetViewRequest(snapshot=snapshot, seat=seat),
                         token=token)).views
    return views


@pytest.mark.parametrize(("variant", "players", "options", "scores", "now", "nxt"), ENDS,
                         ids=[f"{v}{p}-{s[0]}" for v, p, _, s, _, _ in ENDS])
def test_a_hands_end_says_each_sides_next_minimum(call: Call, variant: str, players: int,
                                                  options: dict[str, str],
                                                  scores: tuple[int, ...], now: Mins,
                                                  nxt: Mins) -> None:
    """At a hand's end every view (host, spectator, each seat: totals and bands are public)
    gives each side's next-hand minimum from its new total, the game's options applied
    (samba.min_7000, p6_min150_threshold), beside the finished hand's; the next deal's
    minimum is that one, and its nextMinimum 0 while it is played. The view gave only the
    finished hand's minimum (90 beside a new total of 1150, which needs 50)."""
    imported = ok(call("ImportPosition", api.ImportPositionRequest(
        position=_hand_over(variant, players, options, scores))))
    views = _every_view(call, imported.snapshot, list(imported.seat_tokens),
                        imported.host_token)
    assert len(views) == 2 * players + 1
    for view in views:
        assert view.phase == "hand_over"
        assert [s.minimum for s in view.sides] == now
        assert [s.next_minimum for s in view.sides] == nxt
    dealt = ok(call("NextDeal", api.NextDealRequest(snapshot=imported.snapshot),
                    token=imported.host_token))
    for view in dealt.views:
        assert [s.minimum for s in view.sides] == nxt
        assert [s.next_minimum for s in view.sides] == [0] * len(nxt)


def test_no_next_minimum_at_the_games_end(call: Call) -> None:
    """The hand that ends the game (a side reaches 5000, CL-GAME-1) has no next hand: its
    nextMinimum is 0 for every side."""
    imported = ok(call("ImportPosition", api.ImportPositionRequest(
        position=_hand_over("classic", 4, {}, (6000, 10), Phase.GAME_OVER))))
    views = _every_view(call, imported.snapshot, list(imported.seat_tokens),
                        imported.host_token)
    assert {v.phase for v in views} == {"game_over"}
    assert {s.next_minimum for v in views for s in v.sides} == {0}


@pytest.mark.parametrize(("variant", "players"), [("classic", 4), ("samba", 4),
                                                  ("bolivia", 4), ("may_i", 3)])
def test_no_next_minimum_while_a_hand_is_played(call: Call, variant: str,
                                                players: int) -> None:
    """While the hand is played (and in May I?, which has no minimum) nextMinimum is 0."""
    dealt = ok(call("Deal", api.DealRequest(variant=variant, players=players, seed=5)))
    assert {s.next_minimum for v in dealt.views for s in v.sides} == {0}


def test_the_json_view_names_the_next_minimum(http: httpx.Client) -> None:
    """REST: nextMinimum is in each side's JSON when 0 too."""
    deal = http.post("/v1/deal", json={"variant": "classic", "players": 4, "seed": "9"})
    assert deal.status_code == 200, deal.text
    assert {s["nextMinimum"] for v in deal.json()["views"] for s in v["sides"]} == {0}
