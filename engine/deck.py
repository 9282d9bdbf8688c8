"""Packs, the composition of a game's cards, and the seeded shuffle."""

from __future__ import annotations

import random
from collections import Counter

from engine.cards import CARDS, JOKER, Card
from engine.errors import BadInput, Reason
from engine.rules import RuleSet


def composition(rules: RuleSet) -> Counter[Card]:
    """How many copies of each card type the game uses (CL-DECK-1, CL-P6-1)."""
    counts: Counter[Card] = Counter()
    for c in CARDS[:52]:
        counts[c] = rules.packs
    if rules.jokers:
        counts[JOKER] = rules.jokers
    return counts


def ordered_deck(rules: RuleSet) -> list[Card]:
    """The unshuffled deck, pack by pack."""
    return [c for c, n in sorted(composition(rules).items()) for _ in range(n)]


def shuffled_deck(rules: RuleSet, rng: random.Random) -> list[Card]:
    """A shuffled deck, index 0 on top. Uses only the given generator (never global state)."""
    deck = ordered_deck(rules)
    rng.shuffle(deck)
    return deck


def check_deck(rules: RuleSet, deck: list[Card]) -> None:
    """An explicit deck order must hold exactly the game's cards.

    :raises BadInput: reason ``BAD_DECK``.
    """
    if Counter(deck) != composition(rules):
        raise BadInput(Reason.BAD_DECK, f"a stacked deck must hold exactly the "
                       f"{sum(composition(rules).values())} cards of the game")
