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

from engine import Phase, apply, legal_moves, new_game
from engine.bots import LEVELS, greedy_move, ranked_moves, suggest_move
from engine.cards import IS_RED_THREE, parse_cards
from engine.errors import BadInput, Reason
from engine.expert import (
    CANDIDATES,
    DEFAULT_BUDGETS,
    MAX_BUDGET,
    PER_KIND,
    clamp_budget,
    sample,
)
from engine.legal import legal_moves_for
from engine.mayi.bots import own_move, playout_value
from engine.mayi.moves import Buy, PassBuy
from engine.mayi.state import AnyState, MayIState
from engine.moves import Discard, Draw, TakePile, Undo
from engine.notation import import_position
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
            assert deal.pending_red3 == view.pending_red3 == state.pending_red3
            for s in range(players):  # CL-R3-1: only a seat yet to begin a turn holds one
                if any(IS_RED_THREE[c] for c in deal.hands[s]):
                    assert deal.pending_red3[s], (s, deal.hands[s])


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


class _Stop(Exception):
    pass


def test_an_interrupt_is_asked_before_each_round_and_ends_the_search() -> None:
    """The search asks its ``interrupt`` before each round of samples (one playout per
    candidate), so a caller can stop a search of seconds; what it raises ends the search,
    and one that never raises leaves the answer as it was (CL-INFO-6: still a function
    of the view, the budget and the seed). The other levels never ask."""
    state = apply(new_game("classic", 4, seed=2), Draw())
    view = redact(state, state.awaited)
    rounds = 40 // len(ranked_moves(view, CANDIDATES, PER_KIND))
    assert rounds >= 2
    asked: list[int] = []
    plain = suggest_move(state, "expert", 5, budget=40)
    assert suggest_move(state, "expert", 5, budget=40,
                        interrupt=lambda: asked.append(len(asked))) == plain
    assert len(asked) == rounds

    def stop_at_the_second() -> None:
        asked.append(len(asked))
        if len(asked) == 2:
            raise _Stop

    asked.clear()
    with pytest.raises(_Stop):
        suggest_move(state, "expert", 5, budget=40, interrupt=stop_at_the_second)
    assert len(asked) == 2
    for level in ("random", "greedy"):
        suggest_move(state, level, 5, interrupt=stop_at_the_second)  # never asked


# --- May I?: the expert's own play (engine/mayi/bots.py) ---------------------------------

def _mayi(lines: str) -> MayIState:
    fills = "".join(f"hand{s}: *10\n" for s in (1, 2, 3))
    state = import_position(f"mayi-position 1\nplayers: 4\nturn: 0\n{lines}{fills}stock: *\n")
    assert isinstance(state, MayIState)
    return state


def test_may_i_own_play_never_buys() -> None:
    """MI-BUY-1, MI-BUY-2: the expert's own play passes every buy window, where greedy buys
    a discard that completes a set (and takes the penalty card with it)."""
    asked = bought = 0
    for seed in range(1, 13):
        for state in greedy_positions("may_i", 4, {}, seed, 1):
            if Buy() not in legal_moves(state):
                continue
            asked += 1
            bought += isinstance(greedy_move(state, random.Random(seed)), Buy)
            assert own_move(state, random.Random(seed)) == PassBuy(), state.ply
    assert asked > 20 and bought > 0


def test_may_i_own_play_discards_by_the_copies_unseen() -> None:
    """MI-SCORE-1, MI-OFF-2: once down, the card it cannot lay off whose rank has the
    fewest copies unseen goes (three fives lie in the pile); before going down, among
    single cards, the rank with the fewest copies unseen goes too (three eights lie in
    the pile: the least likely to be drawn into a set, MI-CON-1). Greedy throws the
    king, the most penalty points, both times."""
    down = _mayi("phase: meld\ndrew: stock\npile: 5C 5D 5S\nhand0: 5H KD\n"
                 "melds0: 7S 7H 7D | 9S 9H 9D\n")
    assert down.down[0] and legal_moves(down) == [Discard(c) for c in parse_cards("5H KD")]
    assert own_move(down, random.Random(1)) == Discard(parse_cards("5H")[0])
    assert greedy_move(down, random.Random(1)) == Discard(parse_cards("KD")[0])
    up = _mayi("phase: meld\ndrew: stock\npile: 8H 8S 8D\nhand0: 4H 4D 6C 6S 8C KD\n")
    assert not up.down[0]
    assert own_move(up, random.Random(1)) == Discard(parse_cards("8C")[0])
    assert greedy_move(up, random.Random(1)) == Discard(parse_cards("KD")[0])


def test_may_i_own_play_takes_a_discard_that_pairs() -> None:
    """MI-TURN-3, MI-CON-1: before going down it takes the fresh discard that pairs a
    single card (greedy takes only one that completes a set, and draws here)."""
    state = _mayi("phase: draw\ndiscarder: 3\npile: 8H\nhand0: 4H 4D 6C 6S 8C KD 2S 3S JC QD\n")
    assert legal_moves(state) == [TakePile(), Draw()]
    assert own_move(state, random.Random(1)) == TakePile()
    assert greedy_move(state, random.Random(1)) == Draw()


# two sets on the table (seat 1 is down): a queen or a nine is a lay-off once down
_TABLE = "melds1: QS QD QC | 9S 9H 9D\n"
# every other seat down too: kings, jacks, fives and sevens fit as well
_FULL_TABLE = _TABLE + "melds2: KS KH KC | JS JH JD\nmelds3: 5S 5H 5D | 7S 7H 7D\n"


def test_may_i_own_play_keeps_a_card_that_fits_the_table() -> None:
    """MI-OFF-1, MI-OFF-2: before going down it keeps a card that fits a meld on the table
    (a lay-off once it is down) over a card that only pairs, where greedy throws that
    card; once its hand holds no room for the contract's six cards (MI-CON-2) beside
    such cards (copies beyond a set's three count among them), it lets one go, so that
    lay-offs cannot stall its going down."""
    keep = _mayi("phase: meld\ndrew: stock\npile: KC\nhand0: 4H 4D 4C 6C 6S 8C 8D QH\n" + _TABLE)
    assert not keep.down[0] and Discard(parse_cards("QH")[0]) in legal_moves(keep)
    assert greedy_move(keep, random.Random(1)) == Discard(parse_cards("QH")[0])
    assert own_move(keep, random.Random(1)) in [Discard(c) for c in parse_cards("8C 8D 6C 6S")]
    # six cards for the contract, and the queen and the nine only fit the table
    full = _mayi("phase: meld\ndrew: stock\npile: KC\nhand0: 4H 4D 4C QH 9C 6C 6S 8C\n" + _TABLE)
    assert own_move(full, random.Random(1)) in [Discard(c) for c in parse_cards("QH 9C")]
    # five queens: the two beyond the set's three only fit the table too, so with the
    # three lone cards that fit (4C KD AD) there is no room, and one of those goes before
    # the nine that might still pair (MI-CON-2 sets of exactly three)
    queens = _mayi("phase: meld\ndrew: stock\npile: 3C\nhand0: QS QS QH QD QC 2H 2D 4C KD AD 9C\n"
                   "melds1: QH QD QC | 4S 4H 4D\nmelds2: KS KH KC | AH AC AS\n")
    assert own_move(queens, random.Random(1)) in [Discard(c) for c in parse_cards("4C KD AD")]


def test_may_i_own_play_takes_a_discard_that_fits_the_table() -> None:
    """MI-TURN-3, MI-OFF-2: before going down it takes a fresh discard that fits a meld on
    the table while its hand has room for it beside the contract's cards (MI-CON-2); greedy
    draws. With four cards that only fit the table in a hand of ten, it draws too."""
    hand = "4H 4D 6C 6S 9C KD JC 2S 3S 8D"  # three cards that only fit the table
    room = _mayi(f"phase: draw\ndiscarder: 3\npile: QH\nhand0: {hand}\n" + _FULL_TABLE)
    assert legal_moves(room) == [TakePile(), Draw()]
    assert own_move(room, random.Random(1)) == TakePile()
    assert greedy_move(room, random.Random(1)) == Draw()
    full = _mayi(f"phase: draw\ndiscarder: 3\npile: QH\nhand0: {hand.replace('8D', '5C')}\n"
                 + _FULL_TABLE)
    assert own_move(full, random.Random(1)) == Draw()


def test_may_i_playouts_are_valued_by_going_out_first() -> None:
    """MI-OUT-1, MI-SCORE-1: a finished deal is worth more than 1 to the seat that went out
    and less than 1 to every other seat, whatever their penalty points."""
    for seed in range(1, 6):
        state = new_game("may_i", 4, seed=seed)
        rng = random.Random(seed)
        while state.result is None:
            state = apply(state, greedy_move(state, rng))
        winner = state.result.went_out
        values = [playout_value(state, seat) for seat in range(4)]
        assert values[winner] > 1 and all(v < 1 for s, v in enumerate(values) if s != winner)
