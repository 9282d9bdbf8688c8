"""Multiset helpers over sorted card tuples, and a seat's hand broken down by role."""

from __future__ import annotations

from collections.abc import Iterable

from mypy_extensions import mypyc_attr

from engine.cards import IS_BLACK_THREE, JOKER, RANK, THREE, Card
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


@mypyc_attr(native_class=False)
class HandView:
    """A hand split into naturals per rank, deuces, jokers and black threes.

    Built once per legal-move call; every list keeps card-id order, so the first
    ``k`` cards of a rank are the canonical copies a move uses.
    """

    __slots__ = ("hand", "naturals", "deuces", "jokers", "black_threes", "red_threes", "_picks")

    def __init__(self, rules: RuleSet, hand: tuple[Card, ...]) -> None:
        # filled through locals: compiled, an append to a local list is a direct call,
        # to an attribute of this (ordinary Python) class a look-up first
        naturals: dict[int, list[Card]] = {}
        deuces: list[Card] = []
        jokers: list[Card] = []
        black_threes: list[Card] = []
        red_threes: list[Card] = []
        wild = rules.wild
        for c in hand:
            if c == JOKER:
                jokers.append(c)
            elif wild[c]:
                deuces.append(c)
            else:
                rank = RANK[c]
                if rank != THREE:
                    if rank in naturals:
                        naturals[rank].append(c)
                    else:
                        naturals[rank] = [c]
                elif IS_BLACK_THREE[c]:
                    black_threes.append(c)
                else:
                    red_threes.append(c)
        self.hand = hand
        self.naturals = naturals
        self.deuces = deuces
        self.jokers = jokers
        self.black_threes = black_threes
        self.red_threes = red_threes
        self._picks: dict[int, list[tuple[Card, ...]]] = {}

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
