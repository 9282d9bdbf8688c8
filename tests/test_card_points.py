"""What each card counts, as ListVariants' tables state it (``TableFacts.card_points``,
engine/card_points.py): every card of each game's deck in one entry, the values the rules
pages give, and the points the engine's scoring gives each card in a meld and in a hand.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine import new_game
from engine.cards import CODES, RANK, Card, parse_card, parse_cards
from engine.deck import composition
from engine.game import rules_for
from engine.mayi import transitions as mayi_transitions
from engine.mayi.scoring import hand_points
from engine.moves import Meld
from engine.rules import RuleSet
from engine.scoring import side_result
from engine.state import MeldPile, State, evolve
from engine.transitions import counts_for_opening
from engine.variants import VARIANTS, table_facts

TABLES = [(v, p) for v, m in VARIANTS.items() for p in range(m.MIN_PLAYERS, m.MAX_PLAYERS + 1)]


def _entries(variant: str, players: int = 4) -> list[tuple[str, int, int, bool, bool]]:
    """A table's entries as (cards, meld, in hand, toward the minimum, red three)."""
    return [(" ".join(p.cards), p.meld, p.in_hand, p.counts_toward_minimum, p.red_three)
            for p in table_facts(variant, players).card_points]


def _options(variant: str) -> dict[str, tuple[str, ...]]:
    return {" ".join(p.cards): p.options for p in table_facts(variant, 4).card_points}


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_every_card_of_the_deck_is_in_one_entry(variant: str, players: int) -> None:
    """Each card code of the game's deck (its composition: JK only where it has jokers) is
    in exactly one entry, and no entry names a card the deck lacks."""
    rules = rules_for(variant, players)
    deck = (composition(rules) if isinstance(rules, RuleSet)
            else mayi_transitions.composition())
    listed = Counter(code for p in table_facts(variant, players).card_points for code in p.cards)
    assert listed == Counter(CODES[c] for c in deck)


CLASSIC = [  # CL-DECK-4: joker 50, deuce and ace 20, K..8 10, 7..4 and black three 5
    ("JK", 50, 50, True, False),
    ("AS AH AD AC 2S 2H 2D 2C", 20, 20, True, False),
    ("KS KH KD KC QS QH QD QC JS JH JD JC TS TH TD TC 9S 9H 9D 9C 8S 8H 8D 8C", 10, 10, True,
     False),
    ("7S 7H 7D 7C 6S 6H 6D 6C 5S 5H 5D 5C 4S 4H 4D 4C 3S 3C", 5, 5, True, False),
    ("3H 3D", 0, 0, False, True),  # CL-SCORE-4: red threes scored apart
]


@pytest.mark.parametrize("variant", ["classic", "samba"])
def test_CL_DECK_4_classic_and_samba_count_the_classic_values(variant: str) -> None:
    """CL-DECK-4 (Samba alike): each card counts its value in a meld and in a hand; red
    threes are scored apart (CL-SCORE-4, SA-R3-2); no option changes a card's points."""
    for players in range(VARIANTS[variant].MIN_PLAYERS, VARIANTS[variant].MAX_PLAYERS + 1):
        assert _entries(variant, players) == CLASSIC, players
    assert set(_options(variant).values()) == {()}


def test_BO_B3_4_BO_INIT_2_bolivias_black_threes_cost_200_in_a_hand() -> None:
    """BO-B3-4: a black three left in a hand costs 200 (5 in a meld); BO-INIT-2: melded, it
    does not count toward the initial meld. Its entry names the options that change it:
    bolivia.black3 (hoyle: 100), bolivia.black3_penalty_additive (205) and
    bolivia.black3_counts_for_initial."""
    assert _entries("bolivia") == [
        *CLASSIC[:3], ("7S 7H 7D 7C 6S 6H 6D 6C 5S 5H 5D 5C 4S 4H 4D 4C", 5, 5, True, False),
        ("3S 3C", 5, 200, False, False), CLASSIC[4]]
    assert sorted(_options("bolivia")["3S 3C"]) == [
        "bolivia.black3", "bolivia.black3_counts_for_initial", "bolivia.black3_penalty_additive"]
    assert _scored(_dealt("bolivia", {"bolivia.black3": "hoyle"}), parse_card("3S"))[1] == 100
    assert _scored(_dealt("bolivia", {"bolivia.black3_counts_for_initial": True}),
                   parse_card("3C"))[2]


def test_SV_SEVEN_2_a_seven_left_in_a_hand_costs_500() -> None:
    """SV-SEVEN-2: a seven left in a hand costs 500 (5 in a meld), 505 with
    sv.seven_penalty_additive, which its entry names; the rest as in Bolivia."""
    entries = _entries("bolivia_sevens")
    assert entries[3] == ("7S 7H 7D 7C", 5, 500, True, False)
    assert entries[4] == ("6S 6H 6D 6C 5S 5H 5D 5C 4S 4H 4D 4C", 5, 5, True, False)
    assert entries[5] == ("3S 3C", 5, 200, False, False)
    assert _options("bolivia_sevens")["7S 7H 7D 7C"] == ("sv.seven_penalty_additive",)
    assert _scored(_dealt("bolivia_sevens", {"sv.seven_penalty_additive": True}),
                   parse_card("7D"))[1] == 505


def test_MI_COMP_2_may_i_counts_only_the_cards_left_in_a_hand() -> None:
    """MI-COMP-2: ace 15, K Q J 10 ten, 9 to 2 face value, in a hand; MI-SCORE-1: melds
    score nothing, and there is no minimum, no joker and no red three apart."""
    faces = [("AS AH AD AC", 15), ("KS KH KD KC QS QH QD QC JS JH JD JC TS TH TD TC", 10)] + [
        (" ".join(f"{r}{s}" for s in "SHDC"), int(r)) for r in "98765432"]
    for players in (3, 4, 5):
        assert _entries("may_i", players) == [(c, 0, v, False, False) for c, v in faces]


@pytest.mark.parametrize(("variant", "options"), [
    ("classic", {}), ("samba", {}), ("bolivia", {}), ("bolivia_sevens", {}),
    ("bolivia", {"bolivia.black3": "hoyle", "bolivia.black3_counts_for_initial": True}),
    ("bolivia_sevens", {"sv.seven_penalty_additive": True}),
])
def test_each_entry_is_what_the_scoring_gives_its_cards(variant: str,
                                                       options: dict[str, object]) -> None:
    """Each card counts its entry's ``meld`` in a side's base (engine.scoring.side_result),
    its ``in_hand`` off the side's score when left in a hand (a red three there counts as
    laid instead), and toward the initial meld as ``counts_toward_minimum`` says
    (engine.transitions.counts_for_opening); with options set, an entry that names none of
    them still holds."""
    state = _dealt(variant, options)
    for entry in table_facts(variant, 4).card_points:
        if set(entry.options) & set(options):
            continue
        for card in parse_cards(entry.cards):
            assert _scored(state, card) == (entry.meld, entry.in_hand,
                                            entry.counts_toward_minimum, entry.red_three), (
                CODES[card], entry)


def _dealt(variant: str, options: dict[str, object]) -> State:
    state = new_game(variant, 4, seed=1, options=options)
    assert isinstance(state, State)
    return state


def _scored(state: State, card: Card) -> tuple[int, int, bool, bool]:
    """What the engine scores ``card`` in team 0's meld and in seat 0's hand; a red three
    is never melded, so it counts toward no minimum."""
    alone = evolve(state, hands=((card,), (), (), ()), red3=((), (), (), ()))
    melded = side_result(alone, 0, -1, False, (MeldPile(RANK[card], (card,), 0, 0),))
    held = side_result(alone, 0, -1, False, ())
    red = held.red_threes == 1
    opening = counts_for_opening(alone.rules, Meld(((card, card, card),))) and not red
    return melded.base, held.in_hand, opening, red


def test_MI_SCORE_1_may_i_entries_are_its_hand_points() -> None:
    """MI-SCORE-1: a card left in a hand costs what the deal's scoring counts for it."""
    for entry in table_facts("may_i", 4).card_points:
        for card in parse_cards(entry.cards):
            assert hand_points((card,)) == entry.in_hand, entry


def test_no_two_entries_of_a_table_state_the_same() -> None:
    """Cards that count alike are one entry: entries are grouped by all they state."""
    for variant, players in TABLES:
        keys = [(p.meld, p.in_hand, p.counts_toward_minimum, p.red_three, p.options)
                for p in table_facts(variant, players).card_points]
        assert len(set(keys)) == len(keys), variant
