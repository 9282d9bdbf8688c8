"""Bots decide from their seat's information only (CL-INFO-6; engine/observation.py).

Property: two positions that differ only in what the advised seat cannot see (cards
exchanged between the other hands and the stock, the stock reordered, another
shuffle seed) give that seat the same suggestion, for every game, every bot
level and any bot seed. Hypothesis draws the game, the position along a random
hand, the twin and the bot's seed.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Phase, apply, new_game
from engine.bots import LEVELS, random_move, suggest_move
from engine.legal import legal_moves_for
from engine.mayi.state import AnyState, MayIState
from engine.mayi.successor import evolve as mayi_evolve
from engine.observation import hidden_cards, redact
from engine.state import evolve
from tests.twins import twin

GAMES = [("classic", 2, {}), ("classic", 3, {}), ("classic", 4, {}), ("classic", 6, {}),
         ("samba", 4, {}), ("bolivia", 4, {}), ("bolivia_sevens", 4, {}), ("may_i", 3, {}),
         ("may_i", 5, {"buy_priority": "first_call"})]


def position(variant: str, players: int, options: dict[str, str], seed: int,
             plies: int) -> AnyState:
    """The state after up to ``plies`` random moves of a seeded hand (still being played)."""
    rng = random.Random(seed)
    state = new_game(variant, players, seed=seed, options=options)
    for _ in range(plies):
        nxt = apply(state, random_move(state, rng))
        if nxt.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            break
        state = nxt
    return state


def _reseeded(state: AnyState, seed: int) -> AnyState:
    if isinstance(state, MayIState):
        return mayi_evolve(state, seed=seed)
    return evolve(state, seed=seed)


@pytest.mark.parametrize(("variant", "players", "options"), GAMES,
                         ids=[f"{v}-{p}" for v, p, _ in GAMES])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 160), shuffle=st.integers(0, 2**32),
       bot_seed=st.integers(0, 2**64 - 1), data=st.data())
def test_a_suggestion_ignores_what_its_seat_cannot_see(
        variant: str, players: int, options: dict[str, str], seed: int, plies: int,
        shuffle: int, bot_seed: int, data: st.DataObject) -> None:
    state = position(variant, players, options, seed, plies)
    movers = [s for s in range(players) if legal_moves_for(state, s)]
    seat = data.draw(st.sampled_from(movers))
    other = _reseeded(twin(state, seat, 0, random.Random(shuffle)), shuffle)
    assert other.hands[seat] == state.hands[seat]
    for level in LEVELS:
        assert suggest_move(state, level, bot_seed, seat) == suggest_move(
            other, level, bot_seed, seat), (level, seat)


@pytest.mark.parametrize(("variant", "players", "options"), GAMES,
                         ids=[f"{v}-{p}" for v, p, _ in GAMES])
def test_twins_redact_to_one_state(variant: str, players: int,
                                   options: dict[str, str]) -> None:
    """What a bot is handed is the same for both twins, keeps the seat's own hand and
    the table, and holds the same cards (so every count a seat may ask for is right)."""
    rng = random.Random(variant)
    for plies in (0, 7, 30, 90):
        state = position(variant, players, options, players + plies, plies)
        for seat in range(players):
            other = _reseeded(twin(state, seat, 0, rng), rng.getrandbits(32))
            seen = redact(state, seat)
            assert seen == redact(other, seat)
            assert seen.hands[seat] == state.hands[seat] and seen.pile == state.pile
            assert seen.melds == state.melds and seen.seed == 0
            assert [len(h) for h in seen.hands] == [len(h) for h in state.hands]
            assert sorted(hidden_cards(seen, seat)) == sorted(hidden_cards(state, seat))
            assert legal_moves_for(seen, seat) == legal_moves_for(state, seat)


def test_the_bot_sees_a_redacted_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """suggest_move hands its bot the redacted state, never the real one."""
    import engine.bots as bots

    state = position("classic", 4, {}, 5, 11)
    handed: list[AnyState] = []

    def spy(s: AnyState, rng: random.Random) -> object:
        handed.append(s)
        return legal_moves_for(s, s.awaited)[0]

    monkeypatch.setitem(bots.BOTS, "spy", spy)
    suggest_move(state, "spy", 1)
    assert handed == [redact(state, state.awaited)] and handed[0] != state
