"""Shared helpers for the engine tests."""

from __future__ import annotations

from collections import Counter

from engine.cards import Card
from engine.state import State


def all_cards(state: State) -> Counter[Card]:
    """Every card in every zone of a state, as a multiset (for conservation checks)."""
    total: Counter[Card] = Counter(state.stock) + Counter(state.pile)
    for zone in (*state.hands, *state.red3):
        total.update(zone)
    for team in state.melds:
        for meld in team:
            total.update(meld.cards)
    return total
