"""Card types and their text codes.

A card is one of 53 *types* (52 suited cards and the joker). Identical cards from
different packs are the same type: hands, piles and melds are multisets of types,
so two copies of ``KS`` can never make two different moves. Conservation is checked
on these multisets (see :func:`engine.deck.composition`).

Codes follow the rules files: rank ``A K Q J T 9 8 7 6 5 4 3 2`` then suit
``S H D C``; ``JK`` is the joker.

>>> parse_card("QS").rank == QUEEN
True
>>> str(parse_card("TH"))
'TH'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from mypy_extensions import mypyc_attr

from engine.errors import BadMove, Reason

RANK_CHARS: Final = "23456789TJQKA"
SUIT_CHARS: Final = "SHDC"

TWO: Final = 0
THREE: Final = 1
FOUR: Final = 2
FIVE: Final = 3
SIX: Final = 4
SEVEN: Final = 5
EIGHT: Final = 6
NINE: Final = 7
TEN: Final = 8
JACK: Final = 9
QUEEN: Final = 10
KING: Final = 11
ACE: Final = 12
JOKER_RANK: Final = 13
SPADES: Final = 0
HEARTS: Final = 1
DIAMONDS: Final = 2
CLUBS: Final = 3


@mypyc_attr(native_class=False)
class Card(int):
    """An immutable card type: ``rank * 4 + suit``, or 52 for the joker."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        return JOKER_RANK if self == 52 else self >> 2

    @property
    def suit(self) -> int:
        """Suit index, or -1 for the joker."""
        return -1 if self == 52 else self & 3

    @property
    def code(self) -> str:
        return CODES[self]

    def __str__(self) -> str:
        return CODES[self]

    def __repr__(self) -> str:
        return f"Card({CODES[self]!r})"


CARDS: Final[tuple[Card, ...]] = tuple(Card(i) for i in range(53))
JOKER: Final = CARDS[52]
JOKER_ID: Final = 52  # the joker's id, as a plain int
CODES: Final[tuple[str, ...]] = tuple(
    [RANK_CHARS[i >> 2] + SUIT_CHARS[i & 3] for i in range(52)] + ["JK"]
)
_BY_CODE: Final[dict[str, Card]] = {code: CARDS[i] for i, code in enumerate(CODES)}
_BY_CODE["10S"], _BY_CODE["10H"], _BY_CODE["10D"], _BY_CODE["10C"] = (
    CARDS[TEN * 4 + s] for s in range(4)
)


def parse_card(code: str) -> Card:
    """Parse a card code such as ``QS``, ``TH`` (or ``10H``) or ``JK``.

    :raises BadMove: reason ``BAD_CARD`` for anything else.
    """
    found = _BY_CODE.get(code.strip().upper())
    if found is None:
        raise BadMove(Reason.BAD_CARD, f"unknown card code {code!r}")
    return found


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse space- or comma-separated card codes, keeping their order."""
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(parse_card(p) for p in parts)


def format_cards(cards: Iterable[int]) -> str:
    return " ".join(CODES[c] for c in cards)


def rank_of_char(ch: str) -> int:
    """Rank index of a rank character (``K``, ``T``, ``4``...).

    :raises BadMove: reason ``BAD_CARD`` for an unknown character.
    """
    idx = RANK_CHARS.find(ch.upper()) if len(ch) == 1 else -1
    if idx < 0:
        raise BadMove(Reason.BAD_CARD, f"unknown rank {ch!r}")
    return idx


# Per-type lookup tables: the hot paths index these instead of calling properties.
RANK: Final[tuple[int, ...]] = tuple(c.rank for c in CARDS)
SUIT: Final[tuple[int, ...]] = tuple(c.suit for c in CARDS)
IS_RED_THREE: Final[tuple[bool, ...]] = tuple(
    RANK[c] == THREE and SUIT[c] in (HEARTS, DIAMONDS) for c in range(53)
)
IS_BLACK_THREE: Final[tuple[bool, ...]] = tuple(
    RANK[c] == THREE and SUIT[c] in (SPADES, CLUBS) for c in range(53)
)
