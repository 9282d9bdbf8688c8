"""The expert bot (engine/expert.py): legal, deterministic, bounded, fair (CL-INFO-6).

Its strength is measured by ``make bench-bots`` (bench/expert_bench.py), not here:
these tests are about what must hold of every answer.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Phase, apply, new_game
from engine.bots import LEVELS, greedy_move, suggest_move
from engine.cards import IS_RED_THREE
from engine.errors import BadInput, Reason
from engine.expert import DEFAULT_BUDGETS, MAX_BUDGET, clamp_budget, sample
from engine.legal import legal_moves_for
from engine.mayi.state import AnyState, MayIState
from engine.moves import Undo
from engine.observation import hidden_cards, redact
from engine.variants import catalogue
from tests.test_observation import _reseeded, position
from tests.twins import twin

GAMES = [("classic", 2, {}), ("classic", 3, {}), ("classic", 4, {}), ("classic", 5, {}),
         ("classic", 6, {}), ("samba", 4, {}), ("bolivia", 4, {}), ("bolivia_sevens", 4, {}),
         ("may_i", 3, {}), ("may_i", 4, {}), ("may_i", 5, {"buy_priority": "first_call"})]
IDS = [f"{v}-{p}" for v, p, _ in GAMES]
BUDGET = 12  # enough for several samples of a few candidates, cheap enough for many positions


def greedy_positions(variant: str, players: int, options: dict[str, str], seed: int,
                     every: int) -> list[AnyState]:
    """Every ``every``-th position of a hand played by greedy (to its end)."""
    state = new_game(variant, players, seed=seed, options=options)
    rng = random.Random(seed)
    seen = []
    while state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
        if state.ply % every == 0:
            seen.append(state)
        state = apply(state, greedy_move(state, rng))
    return seen


def test_expert_is_a_level() -> None:
    assert LEVELS == ("random", "greedy", "expert")


@pytest.mark.parametrize(("variant", "players", "options"), GAMES, ids=IDS)
def test_expert_answers_a_legal_move_the_same_for_a_seed(
        variant: str, players: int, options: dict[str, str]) -> None:
    for state in greedy_positions(variant, players, options, 3, 9)[:8]:
        for seat in (s for s in range(players) if legal_moves_for(state, s)):
            move = suggest_move(state, "expert", 4, seat, BUDGET)
            assert move in legal_moves_for(state, seat)
            assert not isinstance(move, Undo), "the expert never stages into a dead end"
            assert suggest_move(state, "expert", 4, seat, BUDGET) == move


@pytest.mark.parametrize(("variant", "players", "options"), GAMES, ids=IDS)
def test_experts_play_a_whole_hand(variant: str, players: int, options: dict[str, str]) -> None:
    """The expert in every seat, at a small budget, plays a hand to its end with legal
    moves and never needs ``undo``."""
    state = new_game(variant, players, seed=6, options=options)
    for _ in range(3000):
        if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            break
        move = suggest_move(state, "expert", 2, budget=4)
        assert move in legal_moves_for(state, state.awaited) and not isinstance(move, Undo)
        state = apply(state, move)
    assert state.phase in (Phase.HAND_OVER, Phase.GAME_OVER), "the hand did not end"


@pytest.mark.parametrize(("variant", "players", "options"), GAMES, ids=IDS)
def test_a_sampled_deal_is_consistent_with_the_view(
        variant: str, players: int, options: dict[str, str]) -> None:
    """A sample keeps the seat's hand, the table and every count, deals exactly the hidden
    cards, and leaves the seat the same legal moves."""
    rng = random.Random(variant)
    for state in greedy_positions(variant, players, options, 8, 5):
        seat = state.awaited
        view = redact(state, seat)
        deal = sample(view, seat, rng)
        assert deal.hands[seat] == view.hands[seat] and deal.pile == view.pile
        assert deal.melds == view.melds
        assert [len(h) for h in deal.hands] == [len(h) for h in view.hands]
        assert len(deal.stock) == len(view.stock)
        assert Counter(hidden_cards(deal, seat)) == Counter(hidden_cards(view, seat))
        assert legal_moves_for(deal, seat) == legal_moves_for(view, seat)
        if not isinstance(deal, MayIState):
            for s in range(players):  # CL-R3-1: only a seat dealt red threes, not yet laid, holds one
                if s != seat:
                    held = any(IS_RED_THREE[c] for c in deal.hands[s])
                    assert held == deal.pending_red3[s] == any(
                        IS_RED_THREE[c] for c in state.hands[s]), (s, deal.hands[s])


@pytest.mark.parametrize(("variant", "players", "options"), GAMES, ids=IDS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 160), shuffle=st.integers(0, 2**32),
       bot_seed=st.integers(0, 2**64 - 1), budget=st.integers(1, 24), data=st.data())
def test_the_expert_ignores_what_its_seat_cannot_see(
        variant: str, players: int, options: dict[str, str], seed: int, plies: int,
        shuffle: int, bot_seed: int, budget: int, data: st.DataObject) -> None:
    """CL-INFO-6: twins that differ only in cards hidden from the seat (other hands and
    stock dealt again, another shuffle seed) get the same expert move, at any budget."""
    state = position(variant, players, options, seed, plies)
    movers = [s for s in range(players) if legal_moves_for(state, s)]
    seat = data.draw(st.sampled_from(movers))
    other = _reseeded(twin(state, seat, 0, random.Random(shuffle)), shuffle)
    assert other.hands[seat] == state.hands[seat]
    assert suggest_move(state, "expert", bot_seed, seat, budget) == suggest_move(
        other, "expert", bot_seed, seat, budget)


def test_the_budget_is_clamped_and_checked() -> None:
    """Every game and player count has its default budget, no larger with more players
    (longer playouts)."""
    for info in catalogue():
        budgets = [clamp_budget(None, info.id, n)
                   for n in range(info.min_players, info.max_players + 1)]
        assert budgets == sorted(budgets, reverse=True) and budgets[-1] >= 1, info.id
        assert budgets[0] == DEFAULT_BUDGETS[info.id][info.min_players] <= MAX_BUDGET
    assert clamp_budget(1, "classic", 4) == 1
    assert clamp_budget(MAX_BUDGET, "samba", 4) == MAX_BUDGET
    assert clamp_budget(MAX_BUDGET + 1, "may_i", 4) == MAX_BUDGET
    assert clamp_budget(10**12, "bolivia", 4) == MAX_BUDGET
    state = new_game("classic", 4, seed=2)
    for level in LEVELS:
        for bad in (0, -5):
            with pytest.raises(BadInput) as err:
                suggest_move(state, level, 1, budget=bad)
            assert err.value.reason is Reason.BAD_OPTION_VALUE
