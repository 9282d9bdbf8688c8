"""Moves: small frozen values with a canonical text form that round-trips.

Text forms (cards are codes, groups are separated by `` / ``):

======================  ====================================================
``draw``                draw from the stock
``take``                take the pile by adding its top card to the side's meld
``take 9S 9C``          take the pile with hand cards that meld its top card
``take 9S 9C / KH KD 2C``  ... plus extra melds shown for an initial meld
``take on S:5-9``       take the pile by adding its top card to the side's meld so labelled
``take 9S 9C on 9#2``   take it with a natural pair that joins the labelled meld
``meld KS KH KD``       lay a new meld (``/`` separates melds in batch mode)
``add K KC JK``         add cards to the side's meld of rank K (``3`` = black threes)
``add S:5-9 4S TS``     add cards to a labelled meld (see :mod:`engine.melds` for labels)
``merge K K#2``         merge the second meld into the first (SA-MELD-6, SA-SEQ-6)
``discard 4D``          discard and end the turn
``out`` / ``out 4D``    go out (with an empty hand, or by discarding the last card)
``ask``                 ask partner "may I go out?"
``yes`` / ``no``        partner's binding answer
``undo``                take back the last meld action of this turn
``decline``             decline the pile when the stock is empty: the hand ends
``end``                 end the hand after the last-card red three (no discard)
======================  ====================================================

>>> str(parse_move("meld KH KS KD"))
'meld KS KH KD'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeAlias, TypeVar

from mypy_extensions import mypyc_attr

from engine.cards import CODES, RANK_CHARS, Card, format_cards, parse_cards, rank_of_char
from engine.errors import BadMove, Reason
from engine.mayi.moves import VERBS as MAYI_VERBS
from engine.mayi.moves import Buy, GoDown, LayOff, PassBuy
from engine.mayi.moves import parse as parse_mayi

Group = tuple[Card, ...]


# Sort key per card id: naturals first, then deuces, then jokers, each by card id
# ("KS KH KD 2C JK"); a table lookup, as every generated meld is put in this order.
_GROUP_KEY: Final[tuple[int, ...]] = tuple(c + (128 if c == 52 else 64 if c < 4 else 0)
                                    for c in range(53))
_group_key = _GROUP_KEY.__getitem__


def canonical_group(cards: tuple[Card, ...] | list[Card]) -> Group:
    """Cards of a meld group in canonical order.

    Most groups come already in order: a compiled pass checks that first (a sort with a
    key calls the key per card).
    """
    prev = -1
    for c in cards:
        i: int = c  # a plain int: compiled, a machine index and comparison
        key = _GROUP_KEY[i]
        if key < prev:
            return tuple(sorted(cards, key=_group_key))
        prev = key
    return cards if isinstance(cards, tuple) else tuple(cards)


def joined_group(head: Group, tail: Group) -> Group:
    """``canonical_group(head + tail)`` for two groups already in canonical order.

    Meld shapes are naturals of a rank followed by a wild pick, which are in order
    as they stand; only parts that interleave are sorted.
    """
    if head and tail and _GROUP_KEY[head[-1]] > _GROUP_KEY[tail[0]]:
        return canonical_group(head + tail)
    return head + tail


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Draw:
    def __str__(self) -> str:
        return "draw"


def slot_setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    """The setter of a slot of a frozen, slotted dataclass, for a hand-written
    ``__init__``: the generated one calls ``object.__setattr__`` per field, about three
    times slower, and the legal-move generator builds a great many moves."""
    setter: Callable[[Any, Any], None] = cls.__dict__[name].__set__
    return setter


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True, init=False)
class TakePile:
    """Take the pile. ``cards`` meld the top card (empty: add it to the side's meld).

    ``target`` is the label of the side's meld that gets the top card (and
    ``cards``); empty: the meld of the top card's rank, or a new group.
    """

    cards: Group = ()
    extras: tuple[Group, ...] = ()
    target: str = ""

    def __init__(self, cards: Group = (), extras: tuple[Group, ...] = (),
                 target: str = "") -> None:
        _TAKE_CARDS(self, cards)
        _TAKE_EXTRAS(self, extras)
        _TAKE_TARGET(self, target)

    def __str__(self) -> str:
        head = format_cards(self.cards)
        if self.target:
            head = f"{head} on {self.target}".lstrip()
        parts = [head] if head else []
        if self.extras and not head:
            parts.append("-")
        parts += [format_cards(g) for g in self.extras]
        return ("take " + " / ".join(parts)).rstrip()


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True, init=False)
class Meld:
    """Lay one or more new melds (several only for an initial meld in batch mode)."""

    groups: tuple[Group, ...]

    def __init__(self, groups: tuple[Group, ...]) -> None:
        _MELD_GROUPS(self, groups)

    def __str__(self) -> str:
        return "meld " + " / ".join(format_cards(g) for g in self.groups)


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True, init=False)
class AddToMeld:
    """Add hand cards to the side's meld of ``rank`` (rank index; 1 = black threes).

    ``label`` names the meld when the rank alone does not (a second group of the
    rank, a sequence, a wild meld; see :mod:`engine.melds`); empty for the first
    group of ``rank``. ``rank`` is then the meld's rank code (13 wild, 14+ sequence).
    """

    rank: int
    cards: Group
    label: str = ""

    def __init__(self, rank: int, cards: Group, label: str = "") -> None:
        _ADD_RANK(self, rank)
        _ADD_CARDS(self, cards)
        _ADD_LABEL(self, label)

    def __str__(self) -> str:
        name = self.label or (RANK_CHARS[self.rank] if 0 <= self.rank < 13 else
                              "W" if self.rank == 13 else f"#{self.rank}")
        return f"add {name} {format_cards(self.cards)}"


_TAKE_CARDS: Final = slot_setter(TakePile, "cards")
_TAKE_EXTRAS: Final = slot_setter(TakePile, "extras")
_TAKE_TARGET: Final = slot_setter(TakePile, "target")
_MELD_GROUPS: Final = slot_setter(Meld, "groups")
_ADD_RANK: Final = slot_setter(AddToMeld, "rank")
_ADD_CARDS: Final = slot_setter(AddToMeld, "cards")
_ADD_LABEL: Final = slot_setter(AddToMeld, "label")
_NEW: Final = object.__new__


def new_meld(group: Group) -> Meld:
    """``Meld((group,))`` without the class call: the generators build a great many, and
    compiled, calling the class goes through ``type.__call__`` and a Python-level
    ``__init__`` (callgrind: about 2,600 instructions a move, this about 1,250)."""
    move: Meld = _NEW(Meld)
    _MELD_GROUPS(move, (group,))
    return move


def new_addition(rank: int, cards: Group, label: str) -> AddToMeld:
    """``AddToMeld(rank, cards, label)`` without the class call (see :func:`new_meld`)."""
    move: AddToMeld = _NEW(AddToMeld)
    _ADD_RANK(move, rank)
    _ADD_CARDS(move, cards)
    _ADD_LABEL(move, label)
    return move


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Merge:
    """Merge the side's meld labelled ``second`` into the one labelled ``first``."""

    first: str
    second: str

    def __str__(self) -> str:
        return f"merge {self.first} {self.second}"


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Discard:
    card: Card

    def __str__(self) -> str:
        return f"discard {CODES[self.card]}"


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class GoOut:
    """Go out: with an already empty hand, or by discarding the last card."""

    card: Card | None = None

    def __str__(self) -> str:
        return "out" if self.card is None else f"out {CODES[self.card]}"


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Ask:
    def __str__(self) -> str:
        return "ask"


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Answer:
    yes: bool

    def __str__(self) -> str:
        return "yes" if self.yes else "no"


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Undo:
    def __str__(self) -> str:
        return "undo"


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Decline:
    def __str__(self) -> str:
        return "decline"


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class EndHand:
    def __str__(self) -> str:
        return "end"


# The Canasta family's moves; May I?'s are engine.mayi.moves.MayIMove.
CanastaMove: TypeAlias = (Draw | TakePile | Meld | AddToMeld | Merge | Discard | GoOut | Ask
                          | Answer | Undo | Decline | EndHand)
# Every game's moves: what the facade takes (a game refuses another game's move).
Move: TypeAlias = CanastaMove | Buy | PassBuy | GoDown | LayOff

MOVE_KINDS: Final[dict[type, str]] = {
    Draw: "draw", TakePile: "take", Meld: "meld", AddToMeld: "add", Discard: "discard",
    GoOut: "out", Ask: "ask", Answer: "answer", Undo: "undo", Decline: "decline",
    EndHand: "end", Merge: "merge",
    Buy: "buy", PassBuy: "pass", GoDown: "down", LayOff: "layoff",
}

_BARE: Final[dict[str, Move]] = {
    "draw": Draw(), "ask": Ask(), "yes": Answer(True), "no": Answer(False),
    "undo": Undo(), "decline": Decline(), "end": EndHand(), "out": GoOut(),
}


def _groups(text: str) -> tuple[Group, ...]:
    groups = []
    for part in text.split("/"):
        cards = parse_cards(part)
        if not cards:
            raise BadMove(Reason.BAD_MOVE_SYNTAX, "empty card group")
        groups.append(canonical_group(cards))
    return tuple(groups)


def _label(text: str) -> tuple[int, str]:
    from engine.melds import parse_label  # melds builds on this module

    return parse_label(text)


_M = TypeVar("_M")


def listed_as(listed: Sequence[_M], move: object, same: bool = True) -> _M | None:
    """The listed move equal to ``move``, as the game's own move, or ``None`` when it is not
    listed. A bot sends a listed object back, so it is looked for by identity first when
    ``same`` (``move`` is the object the caller sent), before comparing values."""
    if same:
        for own in listed:
            if own is move:
                return own
    for own in listed:
        if own == move:
            return own
    return None


def parse_move(text: str) -> Move:
    """Parse a move's text form (case-insensitive, extra spaces allowed).

    :raises BadMove: ``BAD_MOVE_SYNTAX`` or ``BAD_CARD``.
    """
    words = text.strip().split(None, 1)
    if not words:
        raise BadMove(Reason.BAD_MOVE_SYNTAX, "empty move")
    verb = words[0].lower()
    rest = words[1].strip() if len(words) > 1 else ""
    if verb in MAYI_VERBS:  # May I? moves: engine/mayi/moves.py
        return parse_mayi(verb, rest)
    if not rest and verb in _BARE:
        return _BARE[verb]
    if verb == "take":
        if not rest:
            return TakePile()
        first, _, more = rest.partition("/")
        head, on, target = first.strip().lower().partition(" on ")
        if not on and head.startswith("on "):
            head, on, target = "", "on", head[3:]
        head = head.strip()
        shown: Group = () if head in ("", "-") else _groups(head)[0]
        extras = _groups(more) if more.strip() else ()
        return TakePile(shown, extras, _label(target)[1] if on else "")
    if verb == "meld" and rest:
        return Meld(_groups(rest))
    if verb == "add" and rest:
        label, _, card_text = rest.partition(" ")
        found = parse_cards(card_text)
        if not found:
            raise BadMove(Reason.BAD_MOVE_SYNTAX, "add needs cards")
        if len(label) == 1 and label.upper() != "W":
            return AddToMeld(rank_of_char(label), canonical_group(found))
        rank, norm = _label(label)
        if len(norm) == 1 and rank < 13:  # "K#1" is the plain "K"
            return AddToMeld(rank, canonical_group(found))
        cards = tuple(sorted(found)) if rank >= 14 else canonical_group(found)
        return AddToMeld(rank, cards, norm)
    if verb == "merge" and rest:
        labels = rest.split()
        if len(labels) != 2:
            raise BadMove(Reason.BAD_MOVE_SYNTAX, "merge names two melds")
        return Merge(_label(labels[0])[1], _label(labels[1])[1])
    if verb in ("discard", "out") and rest:
        found = parse_cards(rest)
        if len(found) != 1:
            raise BadMove(Reason.BAD_MOVE_SYNTAX, f"{verb} takes exactly one card")
        return Discard(found[0]) if verb == "discard" else GoOut(found[0])
    raise BadMove(Reason.BAD_MOVE_SYNTAX, f"cannot read move {text!r}")
