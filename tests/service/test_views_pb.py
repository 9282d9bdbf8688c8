"""All-seat views in answers: the table is converted once and copied, and each copy must
be exactly the seat's own view (CL-INFO-1..6: what a seat may see, and nothing more)."""

from __future__ import annotations

import random

import pytest

from engine import Phase, apply, new_game
from engine.bots import random_move
from engine.views import seat_view
from service.api import convert
from service.api.core import Core
from service.api.pb import api

GAMES = [("classic", 2, {}), ("classic", 4, {}), ("classic", 6, {}), ("samba", 4, {}),
         ("bolivia", 4, {}), ("bolivia_sevens", 4, {}), ("may_i", 4, {}),
         ("may_i", 5, {"buy_priority": "first_call"})]


@pytest.mark.parametrize(("variant", "players", "options"), GAMES)
def test_all_seat_views_equal_each_seats_own_view(variant: str, players: int,
                                                  options: dict[str, str]) -> None:
    rng = random.Random(players)
    state = new_game(variant, players, seed=11, options=options)
    checked = 0
    while state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER) and checked < 400:
        resp = api.ApplyMoveResponse()
        Core._fill_views(state, None, resp.views)
        teams = state.rules.layout.teams
        expected = [convert.view_pb(seat_view(state, s), teams, api.ApplyMoveResponse().views.add())
                    for s in range(players)]
        assert list(resp.views) == expected
        checked += 1
        state = apply(state, random_move(state, rng))
    assert checked > 20
