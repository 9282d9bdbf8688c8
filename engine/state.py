"""The immutable game state: a whole match, its current hand and the turn in progress.

Zones are multisets of card types held as sorted tuples (hands, melds) or
ordered tuples (stock and pile, top card last). Nothing here changes in place:
:func:`engine.play.apply` builds a new state with :func:`evolve` (below).

Compiled like the rest of the engine (the hot path reads these classes on every
move: compiled, random classic playouts run about 1.1 times faster), its classes stay
ordinary Python classes (``native_class=False``), whose instance ``__dict__``
:func:`evolve` copies. Their field annotations are quoted, and ``X | None`` is
written ``Optional[X]``: a compiled module keeps a quoted annotation as written and
erases any other to its runtime class (``tuple``), and the snapshot codec reads the
full types (engine/codec.py).
"""

# ruff: noqa: UP037, UP045 (the quoted annotations and Optional: see above)

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final, Literal, Optional, TypeAlias, TypeVar, get_args

from mypy_extensions import mypyc_attr

from engine.cards import Card
from engine.moves import CanastaMove, Group, slot_setter
from engine.rules import RuleSet

T = TypeVar("T", "State", "Turn")
S = TypeVar("S")


def evolve(obj: T, **changes: object) -> T:
    """A copy of a frozen State or Turn with some fields changed.

    ``dataclasses.replace`` re-runs ``__init__``; copying the instance dict is
    several times faster on the hot path. A State's legal-move cache is never
    carried over.
    """
    old = obj.__dict__
    data = old.copy()
    data.update(changes)
    assert len(data) == len(old), f"unknown fields {set(data) - set(old)}"
    if "_legal" in data:
        data["_legal"] = None
    return with_dict(type(obj), data)


def with_dict(cls: type[S], data: dict[str, object]) -> S:
    """An instance of a frozen state class whose instance dict is ``data``, built past
    ``__init__`` and the frozen ``__setattr__``: every successor of every game is made
    so."""
    new: S = _NEW(cls)
    _SET(new, "__dict__", data)
    return new


# object's own methods, read from C statics where the compiled build would look ``object``
# up among the builtins and then its attribute, twice a successor
_NEW: Final = object.__new__
_SET: Final = object.__setattr__
KEEP: Final = object()  # a field successor() leaves as it is


def successor(state: State, *, stock: object = KEEP, pile: object = KEEP,
              hands: object = KEEP, melds: object = KEEP, red3: object = KEEP,
              opened: object = KEEP, melded: object = KEEP, penalties: object = KEEP,
              phase: object = KEEP, turn: object = KEEP) -> State:
    """:func:`evolve` of a State in the fields the moves change every turn.

    Compiled, a call with these keywords passes them as arguments, where ``**changes``
    builds a dict and merges it (callgrind: about 3 % of a random hand's instructions).
    """
    data = state.__dict__.copy()
    if stock is not KEEP:
        data["stock"] = stock
    if pile is not KEEP:
        data["pile"] = pile
    if hands is not KEEP:
        data["hands"] = hands
    if melds is not KEEP:
        data["melds"] = melds
    if red3 is not KEEP:
        data["red3"] = red3
    if opened is not KEEP:
        data["opened"] = opened
    if melded is not KEEP:
        data["melded"] = melded
    if penalties is not KEEP:
        data["penalties"] = penalties
    if phase is not KEEP:
        data["phase"] = phase
    if turn is not KEEP:
        data["turn"] = turn
    data["_legal"] = None
    return with_dict(State, data)


def stamp_ply(fresh: object, ply: int) -> None:
    """Set the ply of a successor the move has just built, a fresh object nobody else
    holds: one store in its instance dict, where :func:`evolve` would copy the state once
    more on every move."""
    fresh.__dict__["ply"] = ply


class Phase(StrEnum):
    """Every phase of every game, as the contract's one phase enum names them (a view's
    ``phase``). A game's states hold only that game's phases: :data:`CanastaPhase` here,
    ``MayIPhase`` in engine/mayi/state.py."""

    DRAW = "draw"
    DRAW_EXHAUSTED = "draw_exhausted"
    MELD = "meld"
    PERMISSION = "permission"
    BUY_WINDOW = "buy_window"  # May I?: out-of-turn buy answers are awaited (MI-BUY)
    HAND_OVER = "hand_over"
    GAME_OVER = "game_over"


# The Canasta family's phases: it never waits for buy answers (May I?'s window).
CanastaPhase: TypeAlias = Literal[Phase.DRAW, Phase.DRAW_EXHAUSTED, Phase.MELD,
                                  Phase.PERMISSION, Phase.HAND_OVER, Phase.GAME_OVER]
# Where a player may ask to go out (CL-OUT-4), and where the answer returns to.
AskPhase: TypeAlias = Literal[Phase.DRAW, Phase.DRAW_EXHAUSTED, Phase.MELD]
# by name, for the position reader: text names only a phase of its own game
CANASTA_PHASES: Final[dict[str, CanastaPhase]] = {p.value: p for p in get_args(CanastaPhase)}
ASK_PHASES: Final[dict[str, AskPhase]] = {p.value: p for p in get_args(AskPhase)}


# Rank codes of the melds that are not groups of one rank (see engine.melds).
WILD_RANK: Final = 13  # wild cards only (BO-WILD-2)
SEQ_RANK: Final = 14  # 14 + suit: a sequence of that suit (SA-SEQ)


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True, init=False)
class MeldPile:
    """A meld on the table: one rank (``1`` = black threes), its cards, who started it.

    ``rank`` is a rank code: 13 for a meld of wild cards, 14 + suit for a sequence.
    """

    rank: "int"
    cards: "Group"
    owner: "int"
    wilds: "int"

    def __init__(self, rank: int, cards: Group, owner: int, wilds: int) -> None:
        _PILE_RANK(self, rank)  # the slots set directly: see engine.moves.slot_setter
        _PILE_CARDS(self, cards)
        _PILE_OWNER(self, owner)
        _PILE_WILDS(self, wilds)

    @property
    def kind(self) -> str:
        """``group``, ``black_threes``, ``wild`` or ``sequence``."""
        if self.rank >= SEQ_RANK:
            return "sequence"
        if self.rank == WILD_RANK:
            return "wild"
        return "black_threes" if self.rank == 1 else "group"

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def naturals(self) -> int:
        return len(self.cards) - self.wilds

    @property
    def is_canasta(self) -> bool:
        return len(self.cards) >= 7

    @property
    def is_natural_canasta(self) -> bool:
        return len(self.cards) >= 7 and self.wilds == 0


_PILE_RANK: Final = slot_setter(MeldPile, "rank")
_PILE_CARDS: Final = slot_setter(MeldPile, "cards")
_PILE_OWNER: Final = slot_setter(MeldPile, "owner")
_PILE_WILDS: Final = slot_setter(MeldPile, "wilds")


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Turn:
    """What the active seat has done this turn.

    ``staged`` are the meld actions since the draw (or the take), replayable over
    ``base_hand``/``base_melds`` so that ``undo`` can take the last one back.
    """

    seat: "int"
    drew: "str" = ""  # "", "stock" or "pile"
    asked: "bool" = False
    answer: "str" = ""  # "", "yes" or "no"
    asked_in: "AskPhase" = Phase.DRAW
    staged: "tuple[CanastaMove, ...]" = ()
    base_hand: "tuple[Card, ...]" = ()
    base_melds: "tuple[MeldPile, ...]" = ()
    created: "tuple[int, ...]" = ()  # ranks of melds this seat created in the take
    laid_off_on_partner: "bool" = False  # the take added to a partner's meld
    no_discard: "bool" = False  # last stock card was a red three (may-meld option)
    last_chance: "bool" = False  # took the pile with the stock empty: the hand ends (BO-END-3)


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class CanastaTally:
    """A side's canastas of one kind in a hand's score, and their bonuses together."""

    kind: "str"  # as the view names it (engine.melds.canasta_kind): natural, mixed, samba...
    count: "int"
    bonus: "int"


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class SideResult:
    """One team's score for a hand, with every component (CL-SCORE-8)."""

    team: "int"
    base: "int"
    natural_canastas: "int"
    mixed_canastas: "int"
    canasta_bonus: "int"
    going_out: "int"
    red_threes: "int"
    red_three_points: "int"
    in_hand: "int"
    penalties: "int"
    total: "int"
    cumulative: "int"
    # the canastas by kind, whose bonuses make canasta_bonus (last, with a default: the
    # result of a snapshot sealed before it decodes with none, and engine.codec fills them
    # in from the melds, engine.scoring.with_tallies)
    canastas: "tuple[CanastaTally, ...]" = ()


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class HandResult:
    went_out: "int"  # seat, or -1 when the stock ran out
    concealed: "bool"
    sides: "tuple[SideResult, ...]"
    winner: "int" = -1  # team that won the game, -1 none
    draw: "bool" = False  # game ended in a draw (tie policy "draw")


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class State:
    rules: "RuleSet"
    seed: "int"
    hand_no: "int"
    dealer: "int"
    scores: "tuple[int, ...]"  # cumulative per team at the start of this hand
    order: "tuple[int, ...]"  # active seats in turn order, first player first
    stock: "tuple[Card, ...]"
    pile: "tuple[Card, ...]"
    hands: "tuple[tuple[Card, ...], ...]"
    melds: "tuple[tuple[MeldPile, ...], ...]"  # per team
    red3: "tuple[tuple[Card, ...], ...]"  # per seat
    opened: "tuple[bool, ...]"  # per team
    melded: "tuple[bool, ...]"  # per seat: has melded a card in an earlier turn
    # per seat: has not begun a turn this hand, so the red threes it was dealt, if any,
    # are still to be laid (CL-R3-1); public, unlike whether it holds one
    pending_red3: "tuple[bool, ...]"
    asks: "tuple[int, ...]"  # per seat: questions asked this hand
    penalties: "tuple[int, ...]"  # per team, this hand
    phase: "CanastaPhase"
    turn: "Turn"
    ply: "int" = 0
    result: "Optional[HandResult]" = None
    # meld side of each seat; differs from the scoring teams only in cutthroat play
    side_of: "tuple[int, ...]" = ()
    lone: "int" = -1  # cutthroat: the lone hand, once someone has taken the pile
    # the cards turned up at the deal to start the pile, in the order turned (a wild card,
    # red three or black three turned up is covered by the next one, CL-DEAL-4): seen by
    # everyone at the table, so every view shows them for the whole hand
    upcards: "tuple[Card, ...]" = ()
    # the legal-move cache: set once, in one assignment (engine.legal), so threads that
    # share a state never see it half filled or doubled
    _legal: "Optional[tuple[CanastaMove, ...]]" = field(default=None, init=False,
                                                   compare=False, repr=False)

    @property
    def awaited(self) -> int:
        """The seat whose move is due (the partner while a question is pending), or -1."""
        if self.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            return -1
        if self.phase is Phase.PERMISSION:
            return partner_of(self, self.turn.seat)
        return self.turn.seat

    def team_of(self, seat: int) -> int:
        """The meld side of a seat (its partnership; cutthroat pairs form mid-hand)."""
        return self.side_of[seat]


def partner_of(state: State, seat: int) -> int:
    """Who answers this seat's question: the next active teammate in turn order (CL-P6-10)."""
    side = state.side_of[seat]
    order = state.order
    i = order.index(seat)
    for k in range(1, len(order)):
        other = order[(i + k) % len(order)]
        if state.side_of[other] == side:
            return other
    return -1


def next_scores(state: State) -> tuple[int, ...]:
    """Per team, the cumulative score the next hand starts with: the finished hand's
    result (the next deal's scores, and the minimum its view states at the hand's end)."""
    assert state.result is not None
    return tuple(s.cumulative for s in state.result.sides)


def minimum_of(state: State, seat: int) -> int:
    """The initial-meld minimum of a seat's side, from its own cumulative score (CL-MIN-1/2)."""
    return state.rules.minimum_for(state.scores[state.rules.layout.seat_team[seat]])
