"""The immutable May I? state: a whole game, its current deal and the turn in progress.

It carries what hosts read on every game (``rules``, ``phase``, ``awaited``,
``turn.seat``, ``hand_no``, ``dealer``, ``ply``, ``result``, ``stock``, ``pile``,
``hands``), with May I?'s own zones: melds per player, who has gone down, the
buys of each player in this deal and the buy window of the turn.

Phases (:data:`MayIPhase`, of :class:`engine.state.Phase`): ``draw`` (the player in
turn takes the fresh discard or draws), ``buy_window`` (the declined discard is
offered: the awaited seat answers ``buy`` or ``pass``), ``meld`` (go down, lay off,
discard), ``hand_over`` and ``game_over``.

Compiled with ordinary Python classes and quoted field annotations, as
engine/state.py explains (the snapshot codec reads the annotations).
"""

# ruff: noqa: UP037, UP045 (quoted annotations and Optional: engine/state.py says why)

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal, Optional, TypeAlias, get_args

from mypy_extensions import mypyc_attr

from engine.cards import Card
from engine.mayi.moves import LayOff
from engine.mayi.rules import MayIRules
from engine.mayi.table import TableMeld
from engine.moves import Move
from engine.state import HandResult, Phase, State

# May I?'s phases: no permission to go out, no play on an exhausted stock (Canasta's).
MayIPhase: TypeAlias = Literal[Phase.DRAW, Phase.MELD, Phase.BUY_WINDOW, Phase.HAND_OVER,
                               Phase.GAME_OVER]
MAYI_PHASES: Final[dict[str, MayIPhase]] = {p.value: p for p in get_args(MayIPhase)}

# The phases ``awaited`` tests, as module constants: reading a member off the enum
# class is a slow class attribute lookup (engine/mayi/successor.py has them all).
BUY_WINDOW: Final = Phase.BUY_WINDOW
HAND_OVER: Final = Phase.HAND_OVER
GAME_OVER: Final = Phase.GAME_OVER

# the lay-offs the table takes: per card type, in listing order
# (a dict, typed as one so that compiled code reads it with dict operations; shared by
# the successors that keep the same table, so never changed once built)
TableFits = dict[int, tuple[LayOff, ...]]


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class MayITurn:
    """The turn of ``seat`` (built positionally on every move: keep the field order).

    ``fresh`` says the pile's top card is a live discard (offered to the player in
    turn, then for buying); ``discarder`` is who discarded it (-1: the upcard).
    ``window`` lists the seats that may still answer the buy window, in priority
    order. ``taken`` is the card type taken from the pile this turn (MI-TURN-4).
    """

    seat: "int"
    drew: "str" = ""  # "", "stock" or "pile"
    fresh: "bool" = False
    discarder: "int" = -1
    window: "tuple[int, ...]" = ()
    taken: "Optional[Card]" = None
    went_down: "bool" = False  # went down in this turn (MI-OFF-1)
    laid_off: "bool" = False  # laid a card off in this turn (the table changed)


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class MayIResult(HandResult):
    """A deal's result. ``sides`` has one row per player (``team`` = seat): ``total``
    and ``in_hand`` are the deal's penalty points, ``cumulative`` the game total.

    At the end of the game ``winners`` lists the seats with the lowest total
    (MI-GAME-2); ``winner`` is that seat when it is alone, else -1 with ``draw``.
    """

    winners: "tuple[int, ...]" = ()


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class MayIState:
    rules: "MayIRules"
    seed: "int"
    hand_no: "int"  # deal number, 0-based; its contract is rules.contracts[hand_no]
    dealer: "int"
    scores: "tuple[int, ...]"  # cumulative penalty points per seat before this deal
    order: "tuple[int, ...]"  # seats in turn order, dealer's left first
    stock: "tuple[Card, ...]"  # top card last
    pile: "tuple[Card, ...]"  # top card last; public in May I? (MI-TURN-3)
    hands: "tuple[tuple[Card, ...], ...]"  # sorted
    melds: "tuple[tuple[TableMeld, ...], ...]"  # per seat, in the order laid
    down: "tuple[bool, ...]"  # per seat: has gone down this deal (MI-CON-4)
    buys: "tuple[int, ...]"  # per seat: buys this deal (MI-BUY-5)
    phase: "MayIPhase"
    turn: "MayITurn"
    reshuffles: "int" = 0  # pile reshuffles this deal (MI-STOCK-1), seeds the next one
    ply: "int" = 0
    result: "Optional[MayIResult]" = None
    # the card turned up at the deal under turn_upcard (MI-DEAL-2): seen by everyone, so
    # every view shows it for the whole deal
    upcards: "tuple[Card, ...]" = ()
    # the legal-move cache: set once, in one assignment (engine.legal), so threads that
    # share a state never see it half filled or doubled
    _legal: "Optional[tuple[Move, ...]]" = field(default=None, init=False, compare=False,
                                            repr=False)
    # the lay-offs the table takes (see engine.mayi.legal.table_fits): kept by the copies
    # of ``evolve`` and valid while ``melds`` and the rules are the very same objects
    _fits: "Optional[tuple[tuple[tuple[TableMeld, ...], ...], MayIRules, TableFits]]" = field(
        default=None, init=False, compare=False, repr=False)

    @property
    def awaited(self) -> int:
        """The seat whose move is due: the first seat of an open buy window, else the
        player in turn; -1 once the deal is over."""
        phase = self.phase
        if phase is HAND_OVER or phase is GAME_OVER:
            return -1
        if phase is BUY_WINDOW:
            return self.turn.window[0]
        return self.turn.seat


# A state of any game of the engine: the facade (engine.game, .legal, .play, .views,
# .notation, .bots) takes both and hands a May I? state to engine/mayi.
AnyState: TypeAlias = State | MayIState
