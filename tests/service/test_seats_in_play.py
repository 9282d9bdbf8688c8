"""Who plays the hand, in every view: classic with five players leaves one seat out of each
hand (CL-P5-2) and six with ``p6_mode=rotation`` two (CL-P6-11). A view showed such a seat
holding no card and nothing said why, and ListVariants' ``seats_in_play`` is the default
options' rotation, so a client could not tell who sits out of a game dealt with
``p6_mode=rotation``. ``SeatView.seats_in_play`` says it from the rules the engine plays
by, as ``deals`` and ``target_score`` do (tests/service/test_match_deals.py).
"""

from __future__ import annotations

import itertools
from typing import Any

import httpx
import pytest

from engine import rules_for
from service.api.pb import api
from tests.service.helpers import Call, ok

# a target no few hands reach: the game goes on past a whole rotation of three hands
ROTATIONS = [("classic", 5, {"target_score": "100000"}),
             ("classic", 6, {"p6_mode": "rotation", "target_score": "100000"})]
HANDS = 4


def _engine_seats(variant: str, players: int, options: dict[str, str], hand_no: int
                  ) -> list[int]:
    """The seats the engine deals in for a hand, in the order they play."""
    return list(rules_for(variant, players, options).active_seats(hand_no))


def _every_role_sees(call: Call, deal: Any, snapshot: bytes, players: int) -> list[int]:
    """The view's seats_in_play, the same for the host, a spectator with no credential and
    each seat with its own, and the same in the deal's answer."""
    seen = {tuple(v.seats_in_play) for v in deal.views}
    for seat, token in [(-1, deal.host_token), (-1, None), *enumerate(deal.seat_tokens)]:
        got = ok(call("GetView", api.GetViewRequest(snapshot=snapshot, seat=seat),
                      token=token))
        seen |= {tuple(v.seats_in_play) for v in got.views}
    assert len(deal.seat_tokens) == players
    assert len(seen) == 1, seen
    return list(seen.pop())


@pytest.mark.parametrize(("variant", "players", "options"), ROTATIONS,
                         ids=["classic5", "classic6_rotation"])
def test_every_view_says_who_plays_each_hand(call: Call, variant: str, players: int,
                                             options: dict[str, str]) -> None:
    """Hand after hand (NextDeal), every role's view holds the engine's active seats in
    the order they play (CL-P5-3: partners opposite, so the turn passes from side to side),
    the seats outside them hold no card, and every move's answer keeps them for the hand."""
    deal = ok(call("Deal", api.DealRequest(variant=variant, players=players, seed=3,
                                           options=options)))
    host = deal.host_token
    for hand_no in range(HANDS):
        snapshot = deal.snapshot
        playing = _engine_seats(variant, players, options, hand_no)
        assert len(playing) == 4
        assert _every_role_sees(call, deal, snapshot, players) == playing, hand_no
        out = [s for s in range(players) if s not in playing]
        assert [deal.views[0].hand_sizes[s] for s in out] == [0] * len(out)
        turns = [deal.views[0].turn_seat]
        while True:
            hint = ok(call("SuggestMove", api.SuggestMoveRequest(
                snapshot=snapshot, level="greedy", seed=hand_no), token=host))
            moved = ok(call("ApplyMove", api.ApplyMoveRequest(
                snapshot=snapshot, move=hint.move, seat=hint.seat), token=host))
            snapshot = moved.snapshot
            assert {tuple(v.seats_in_play) for v in moved.views} == {tuple(playing)}
            if moved.hand_over:
                break
            if moved.views[0].turn_seat != turns[-1]:
                turns.append(moved.views[0].turn_seat)
        assert len(turns) > len(playing), turns
        assert all(playing[(playing.index(a) + 1) % len(playing)] == b
                   for a, b in itertools.pairwise(turns)), (playing, turns)
        deal = ok(call("NextDeal", api.NextDealRequest(snapshot=snapshot), token=host))
        assert [v.hand_no for v in deal.views] == [hand_no + 1] * players


@pytest.mark.parametrize(("variant", "players", "options"), [
    ("classic", 2, {}), ("classic", 3, {}), ("classic", 4, {}), ("classic", 6, {}),
    ("classic", 6, {"p6_teams": "3"}), ("samba", 4, {}),
    ("bolivia", 4, {}), ("bolivia_sevens", 4, {}), ("may_i", 3, {}), ("may_i", 5, {}),
])
def test_every_seat_plays_where_all_play(call: Call, variant: str, players: int,
                                          options: dict[str, str]) -> None:
    """Where every seat plays every hand, every view lists every seat."""
    deal = ok(call("Deal", api.DealRequest(variant=variant, players=players, seed=4,
                                           options=options)))
    assert _every_role_sees(call, deal, deal.snapshot, players) == list(range(players))


@pytest.mark.parametrize(("hand", "dealer", "playing"), [(4, 5, [2, 3, 4, 5]),
                                                       (5, 1, [4, 5, 0, 1])])
def test_a_later_hand_of_a_position_says_its_seats(call: Call, hand: int, dealer: int,
                                                    playing: list[int]) -> None:
    """CL-P6-11: a position in the fifth hand (the second of the rotation, seats 2 to 5)
    or the sixth (seats 4, 5, 0, 1, in the order they play) says so in every view."""
    position = "\n".join([
        "canasta-position 1", "variant: classic", "players: 6", "options: p6_mode=rotation",
        f"hand: {hand}", f"dealer: {dealer}",
        *(f"hand{s}: *11" if s in playing else f"hand{s}: -" for s in range(6)),
        "stock: *", ""])
    imported = ok(call("ImportPosition", api.ImportPositionRequest(position=position)))
    assert [list(v.seats_in_play) for v in imported.views] == [playing] * 6


def test_rest_names_it_seats_in_play(http: httpx.Client) -> None:
    """The REST view's field is ``seatsInPlay``, for a spectator with no credential too."""
    deal = http.post("/v1/deal", json={"variant": "classic", "players": 5, "seed": "9"}).json()
    answer = http.post("/v1/view", json={"snapshot": deal["snapshot"], "seat": -1})
    assert answer.status_code == 200, answer.text
    assert answer.json()["views"][0]["seatsInPlay"] == [0, 1, 2, 3]
