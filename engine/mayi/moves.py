"""The moves of May I? that Canasta has not: buy, pass, going down and laying off.

May I? also uses three Canasta moves with the same text, meaning the same thing
(:mod:`engine.moves`): ``draw`` (draw the top stock card; for the player in turn
this also declines the fresh discard), ``take`` (take the fresh top discard as
the draw: :class:`~engine.moves.TakePile` without cards) and ``discard 9H``.

=========================  ===============================================================
``take``                   take the fresh top discard as the turn's draw (MI-BUY-1)
``draw``                   decline the discard (a buy window may open), then draw from stock
``buy``                    "May I?": buy the declined discard, with the penalty card(s)
``pass``                   do not buy it
``down 7S 7H 7D / KS KD KC``  go down with exactly the deal's contract (MI-CON)
``layoff 2:1 9D``          lay 9D off on meld 1 of seat 2 (both 0-based, MI-OFF)
``discard 9H``             discard and end the turn (the last card: going out)
=========================  ===============================================================

Moves hold card *types*: identical cards from the two packs never make two moves.
Groups of ``down`` are canonical: sets first (by rank), cards by id, then runs
(by suit and low end), cards from the low end.

>>> from engine.moves import parse_move
>>> str(parse_move("down KC KS KD / 7d 7s 7h"))
'down 7S 7H 7D / KS KD KC'
>>> str(parse_move("layoff 2:1 9D"))
'layoff 2:1 9D'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from mypy_extensions import mypyc_attr

from engine.cards import CODES, Card, format_cards, parse_cards
from engine.errors import BadMove, Reason
from engine.mayi.melds import classify, meld_key
from engine.numerals import unsigned

if TYPE_CHECKING:  # engine.moves imports this module: the shared moves are named by type only
    from engine.moves import Discard, Draw, TakePile

Group = tuple[Card, ...]

# May I?'s moves: its own four and the three it shares with the Canasta family.
MayIMove: TypeAlias = "Draw | TakePile | Discard | Buy | PassBuy | GoDown | LayOff"

VERBS = frozenset({"buy", "pass", "down", "layoff"})


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Buy:
    """Ask "May I?" for the declined discard (MI-BUY-1..7)."""

    def __str__(self) -> str:
        return "buy"


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class PassBuy:
    """Answer the buy window with no (MI-BUY-3)."""

    def __str__(self) -> str:
        return "pass"


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class GoDown:
    """Lay down the deal's contract in one move (MI-CON-1..4)."""

    groups: tuple[Group, ...]

    def __str__(self) -> str:
        return "down " + " / ".join(format_cards(g) for g in self.groups)


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class LayOff:
    """Lay one card off on meld ``meld`` (0-based, in laying order) of ``seat`` (MI-OFF)."""

    seat: int
    meld: int
    card: Card

    def __str__(self) -> str:
        return f"layoff {self.seat}:{self.meld} {CODES[self.card]}"


def canonical_group(cards: Iterable[Card]) -> Group:
    """A meld's cards in canonical order (a set by id, a run from its low end).

    Cards that form no meld are kept sorted by id (the move is then refused).
    """
    group = tuple(cards)
    meld = classify(group, wrap=True)
    return meld.cards if meld is not None else tuple(sorted(group))


def _group_key(group: Group) -> tuple[object, ...]:
    meld = classify(group, wrap=True)
    if meld is None:
        return (2, group)
    return meld_key(meld)


def canonical_groups(groups: Iterable[Iterable[Card]]) -> tuple[Group, ...]:
    """The groups of a ``down`` move in canonical order."""
    return tuple(sorted((canonical_group(g) for g in groups), key=_group_key))


def parse(verb: str, rest: str) -> Buy | PassBuy | GoDown | LayOff:
    """Parse a May I? move whose verb is in :data:`VERBS` (called by ``engine.parse_move``).

    :raises BadMove: ``BAD_MOVE_SYNTAX`` or ``BAD_CARD``.
    """
    if verb in ("buy", "pass"):
        if rest:
            raise BadMove(Reason.BAD_MOVE_SYNTAX, f"{verb} takes nothing after it")
        return Buy() if verb == "buy" else PassBuy()
    if verb == "down":
        groups = []
        for part in rest.split("/"):
            cards = parse_cards(part)
            if not cards:
                raise BadMove(Reason.BAD_MOVE_SYNTAX, "down needs card groups separated by /")
            groups.append(cards)
        return GoDown(canonical_groups(groups))
    target, _, card_text = rest.partition(" ")
    seat_text, colon, meld_text = target.strip().partition(":")
    seat, meld = unsigned(seat_text), unsigned(meld_text)  # as written: '01:0' is no seat
    if not colon or seat is None or meld is None:
        raise BadMove(Reason.BAD_MOVE_SYNTAX, "layoff needs SEAT:MELD CARD, e.g. 'layoff 2:1 9D'")
    cards = parse_cards(card_text)
    if len(cards) != 1:
        raise BadMove(Reason.BAD_MOVE_SYNTAX, "layoff takes exactly one card")
    return LayOff(seat, meld, cards[0])
