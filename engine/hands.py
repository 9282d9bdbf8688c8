"""Multiset helpers over sorted card tuples, and a seat's hand broken down by role."""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import IS_BLACK_THREE, JOKER, JOKER_ID, RANK, THREE, Card
from engine.moves import canonical_group
from engine.rules import RuleSet


def remove_cards(hand: tuple[Card, ...], cards: Iterable[Card]) -> tuple[Card, ...] | None:
    """The hand without ``cards`` (as a multiset), or ``None`` if some are missing."""
    left = list(hand)
    for c in cards:
        try:
            left.remove(c)
        except ValueError:
            return None
    return tuple(left)


def add_cards(hand: tuple[Card, ...], cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted((*hand, *cards)))


class HandView:
    """A hand split into naturals per rank, deuces, jokers and black threes.

    Built several times per legal-move call; every list keeps card-id order, so the
    first ``k`` cards of a rank are the canonical copies a move uses. A native class when
    compiled: it never leaves the engine (no snapshot, no comparison), and its fields are
    read in the generators' inner loops, where a native attribute is a C field and an
    ordinary class's a look-up.
    """

    hand: tuple[Card, ...]
    naturals: dict[int, list[Card]]
    deuces: list[Card]
    jokers: list[Card]
    black_threes: list[Card]
    red_threes: list[Card]
    _picks: dict[int, list[tuple[Card, ...]]]

    def __init__(self, rules: RuleSet, hand: tuple[Card, ...]) -> None:
        naturals: dict[int, list[Card]] = {}
        deuces: list[Card] = []
        jokers: list[Card] = []
        black_threes: list[Card] = []
        red_threes: list[Card] = []
        wild = rules.wild
        last = -1  # the rank of ``run``: a sorted hand holds each rank's cards together
        run: list[Card] = []
        for c in hand:
            i: int = c  # a plain int: compiled, the tests and look-ups below are machine ones
            if i == JOKER_ID:
                jokers.append(c)
            elif wild[i]:
                deuces.append(c)
            else:
                rank = RANK[i]
                if rank != THREE:
                    if rank != last:
                        found = naturals.get(rank)
                        if found is None:
                            found = naturals[rank] = []
                        run, last = found, rank
                    run.append(c)
                elif IS_BLACK_THREE[i]:
                    black_threes.append(c)
                else:
                    red_threes.append(c)
        self.hand = hand
        self.naturals = naturals
        self.deuces = deuces
        self.jokers = jokers
        self.black_threes = black_threes
        self.red_threes = red_threes
        self._picks = {}

    def wild_picks(self, cap: int) -> list[tuple[Card, ...]]:
        """Wild-card choices of size 0..cap, each in canonical order: j jokers and d deuces
        (lowest ids), by j then d, so the first is always the empty choice."""
        cached = self._picks.get(cap)
        if cached is None:
            cached = self._picks[cap] = self._wild_picks(cap)
        return cached

    def _wild_picks(self, cap: int) -> list[tuple[Card, ...]]:
        out: list[tuple[Card, ...]] = []
        deuces = self.deuces
        nj, nd = len(self.jokers), len(deuces)
        for j in range(min(nj, cap) + 1):
            for d in range(min(nd, cap - j) + 1):
                out.append(canonical_group(tuple(deuces[:d]) + (JOKER,) * j))
        return out
