"""Bots decide from their seat's information only (CL-INFO-6; engine/observation.py).

Property: two positions that differ only in what the advised seat cannot see (cards
exchanged between the other hands and the stock, the stock reordered, another
shuffle seed) give that seat the same suggestion, for every game, every bot
level and any bot seed. Hypothesis draws the game, the position along a random
hand, the twin and the bot's seed.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Phase, apply, new_game
from engine.bots import LEVELS, random_move, suggest_move
from engine.cards import IS_RED_THREE
from engine.legal import legal_moves_for
from engine.mayi.moves import Buy, PassBuy
from engine.mayi.state import AnyState, MayIState
from engine.mayi.successor import evolve as mayi_evolve
from engine.moves import Draw
from engine.observation import answering_first, hidden_cards, redact, redeal
from engine.state import State, evolve
from tests.test_scenarios_may_i import t5
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


CANASTA_GAMES = [g for g in GAMES if g[0] != "may_i"]


def _canasta_positions() -> list[State]:
    """Positions of each Canasta game along its hand, some with melds staged."""
    found = []
    for variant, players, options in CANASTA_GAMES:
        for plies in range(0, 120, 3):
            state = position(variant, players, options, plies, plies)
            assert isinstance(state, State)
            found.append(state)
    return found


def test_CL_R3_1_a_redacted_state_keeps_hidden_red_threes_in_the_stock() -> None:
    """CL-R3-1, CL-R3-2: a seat that has begun a turn has laid its red threes, so the
    canonical layout puts the hidden ones in the stock, where one may lie unseen, and
    not in another seat's hand (a bot reading it would see an impossible hand)."""
    checked = 0
    for state in _canasta_positions():
        for seat in range(state.rules.players):
            reds = sum(IS_RED_THREE[c] for c in hidden_cards(state, seat))
            seen = redact(state, seat)
            assert sum(IS_RED_THREE[c] for c in seen.stock) == min(reds, len(seen.stock))
            checked += reds > 0 and len(seen.stock) > 0
    assert checked


def test_a_redacted_state_stages_what_the_real_one_stages() -> None:
    """Redacting for another seat keeps the turn's staging: the same staged moves, and a
    base hand (what ``undo`` returns to) that is empty while nothing is staged, else the
    turn seat's redacted hand with the staged cards (engine/transitions.py ``stage``)."""
    staging = 0
    for state in _canasta_positions():
        t = state.turn.seat
        staged = Counter(state.turn.base_hand) - Counter(state.hands[t])
        staging += bool(state.turn.staged)
        for seat in range(state.rules.players):
            seen = redact(state, seat)
            assert seen.turn.staged == state.turn.staged
            assert bool(seen.turn.base_hand) == bool(state.turn.staged), (seat, t)
            assert Counter(seen.turn.base_hand) - Counter(seen.hands[t]) == staged
    assert staging


def test_CL_R3_1_a_sampled_deal_gives_a_red_three_to_every_hand_yet_to_play() -> None:
    """CL-R3-1: a seat yet to begin a turn may hold a red three unseen, so the expert's
    samples (``redeal``) deal the hidden red threes to each such hand too, not only to
    the stock: at the deal, where only the first seat has begun its turn, every other hand
    gets some."""
    state = new_game("classic", 4, seed=7)
    seat = state.awaited
    assert all(state.pending_red3[s] for s in range(4) if s != seat)
    view = redact(state, seat)
    rng = random.Random(7)
    held = Counter[int]()
    for _ in range(200):
        dealt = redeal(view, seat, rng)
        held.update(s for s, hand in enumerate(dealt.hands) for c in hand if IS_RED_THREE[c])
    assert set(held) == set(range(4)) - {seat}, held
    assert min(held.values()) > 20, held  # about 90 each in 800 red threes dealt


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


def test_MI_BUY_3_a_later_first_call_seat_is_advised_as_the_first_to_answer() -> None:
    """MI-BUY-3 (``buy_priority=first_call``): any seat of an open buy window may answer,
    so the bot advising a later seat sees that seat answer first and the others after it,
    and advises one of that seat's moves (a buy or a pass) at every level."""
    window = apply(t5({"buy_priority": "first_call"}), Draw())
    assert window.awaited == 2 and window.turn.window == (2, 3)
    first = answering_first(window, 3)
    assert first.awaited == 3 and first.turn.window == (3, 2)
    assert first.hands == window.hands and first.pile == window.pile
    for level in LEVELS:
        assert suggest_move(window, level, 1, 3, 4) in (Buy(), PassBuy())
