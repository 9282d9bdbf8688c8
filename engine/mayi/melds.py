"""Sets and sequences of May I? (MI-MELD-1..4, MI-OFF-3, MI-CON-3).

There are no wild cards (MI-MELD-4). A *set* is three or more cards of one rank,
suits free and repeatable (MI-MELD-1). A *sequence* (run) is four or more
consecutive cards of one suit (MI-MELD-2), no rank twice, so at most 13 cards.

Ranks are the engine's indexes ``2..A = 0..12``. A run is written from its low
end: ``start`` is the rank of its first card and the next rank of ``r`` is
``(r + 1) % 13``, so ``Q K A 2`` starts at ``Q`` and goes round the corner. With
``ace_wrap`` (the default, MI-MELD-3) every start is allowed; without it the
ace may only be an end of a run (``A 2 3 4`` or ``J Q K A``). A full 13-card run
has one set of cards whatever its start; it is always kept as ``2 .. A``.

>>> from engine.cards import format_cards, parse_cards
>>> m = classify(parse_cards("KS AS 2S QS"), wrap=True)
>>> format_cards(m.cards) if m else None
'QS KS AS 2S'
>>> classify(parse_cards("KS AS 2S QS"), wrap=False) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.cards import ACE, CARDS, RANK, SUIT, Card
from engine.mayi.table import TableMeld

SET_MIN: Final = 3
RUN_MIN: Final = 4


def run_ok(start: int, length: int, wrap: bool) -> bool:
    """Whether a run from ``start`` of ``length`` cards is a valid sequence shape (MI-MELD-3)."""
    if not 1 <= length <= 13:
        return False
    if wrap:
        return True
    at = (ACE - start) % 13  # position of the ace in the run
    return at >= length or at == 0 or at == length - 1


def make_run(suit: int, start: int, length: int) -> TableMeld:
    """A run meld (a 13-card run is normalised to start at the deuce)."""
    if length == 13:
        start = 0
    cards = tuple(CARDS[((start + i) % 13) * 4 + suit] for i in range(length))
    return TableMeld(cards, suit=suit, start=start)


def make_set(cards: Sequence[Card]) -> TableMeld:
    """A set meld from cards of one rank."""
    return TableMeld(tuple(sorted(cards)), rank=RANK[cards[0]])


def _run_start(ranks: list[int]) -> int:
    """The low end of a set of distinct ranks that is cyclically consecutive, or -1."""
    present = set(ranks)
    if len(present) != len(ranks):
        return -1
    if len(ranks) == 13:
        return 0
    starts = [r for r in ranks if (r - 1) % 13 not in present]
    if len(starts) != 1:
        return -1
    return starts[0]


def classify(cards: Sequence[Card], wrap: bool, exact: bool = False) -> TableMeld | None:
    """The meld that ``cards`` (in any order) form, or ``None``.

    :param exact: the contract's exact sizes (MI-CON-2): a set of exactly 3, a run of exactly 4.
    """
    n = len(cards)
    if n >= SET_MIN and all(RANK[c] == RANK[cards[0]] for c in cards):
        if exact and n != SET_MIN:
            return None
        return make_set(cards)
    if n < RUN_MIN or (exact and n != RUN_MIN):
        return None
    suit = SUIT[cards[0]]
    if any(SUIT[c] != suit for c in cards):
        return None
    start = _run_start([RANK[c] for c in cards])
    if start < 0 or not run_ok(start, n, wrap):
        return None
    return make_run(suit, start, n)


def extend(meld: TableMeld, card: Card, wrap: bool) -> TableMeld | None:
    """The meld with ``card`` laid off on it, or ``None`` if it does not fit (MI-OFF-3).

    A card that fits both ends of a 12-card run goes to the high end (same cards).
    """
    i: int = card  # a plain int: compiled, machine indexes
    if not meld.is_run:
        if RANK[i] != meld.rank:
            return None
        return TableMeld(tuple(sorted((*meld.cards, card))), rank=meld.rank)
    n = meld.length
    if SUIT[i] != meld.suit or n >= 13:
        return None
    r = RANK[i]
    if r == (meld.start + n) % 13 and run_ok(meld.start, n + 1, wrap):
        return make_run(meld.suit, meld.start, n + 1)
    low = (meld.start - 1) % 13
    if r == low and run_ok(low, n + 1, wrap):
        return make_run(meld.suit, low, n + 1)
    return None


def contiguous(a: TableMeld, b: TableMeld, wrap: bool) -> bool:
    """Whether two runs of one suit could be a single sequence end to end (MI-CON-3).

    Overlapping runs (built from the two packs) are not contiguous.
    """
    if not (a.is_run and b.is_run) or a.suit != b.suit:
        return False
    n = a.length + b.length
    if n > 13:
        return False
    if (a.start + a.length) % 13 == b.start:
        return run_ok(a.start, n, wrap)
    if (b.start + b.length) % 13 == a.start:
        return run_ok(b.start, n, wrap)
    return False


def meld_key(m: TableMeld) -> tuple[int, int, int, int, tuple[Card, ...]]:
    """Canonical order of the melds of one move: sets by rank and cards, then runs."""
    if m.is_run:
        return (1, m.suit, m.start, m.length, m.cards)
    return (0, m.rank, 0, m.length, m.cards)
