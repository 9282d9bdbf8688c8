"""A first end-to-end check: seeded hands of random play end and conserve the cards."""

from __future__ import annotations

import random

import pytest

from engine import Phase, apply, legal_moves, new_game
from engine.bots import random_move
from engine.deck import composition
from tests.conftest import all_cards


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_hand_ends_and_conserves_cards(players: int) -> None:
    """CL-DECK-1, CL-P6-1, CL-TURN-4: every hand ends; no card appears or vanishes."""
    state = new_game("classic", players, seed=11)
    rng = random.Random(11)
    deck = composition(state.rules)
    for _ in range(3000):
        if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            break
        assert legal_moves(state)
        state = apply(state, random_move(state, rng))
        assert all_cards(state) == deck
    assert state.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
    assert state.result is not None
