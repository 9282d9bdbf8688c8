"""The games of the engine as peers: the Canasta family and May I?, one interface.

A :class:`Game` is what the facade needs of a game: its legal moves, its moves, its
views, its score, its notation, what a seat may know of it and its bots. The facade
(``engine.legal_moves``, ``engine.apply``, ``engine.views.seat_view``, ...) finds a
state's game from its rules (``state.rules.game``) and hands the state over; it never
asks which type a state is. Each game is a subclass in its own module, typed with its
own state and move types (engine/canasta_game.py: ``Game[State, CanastaMove]``,
engine/mayi/mayi_game.py: ``Game[MayIState, MayIMove]``); a new game is one more
subclass, registered in :func:`games`.

>>> from engine.game import new_game
>>> game_of(new_game("may_i", 3)).name, game_of(new_game("samba", 4)).name
('may_i', 'canasta')
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, Final, Generic, TypeVar

from engine.cards import Card
from engine.mayi.state import AnyState
from engine.moves import Move
from engine.state import SideResult

S = TypeVar("S")  # a game's state type
M = TypeVar("M")  # a game's move type


class Game(ABC, Generic[S, M]):
    """One game: every method takes and returns that game's own states (``S``) and lists
    and picks its own moves (``M``); ``apply`` and ``canonicalize`` take any move, since
    a caller may send another game's (it is refused).

    A native (compiled) class hierarchy: the facade calls a game's
    methods on every move, and a method of a compiled class is a direct call where a
    function kept in an object is a Python call (measured with bench/engine_bench.py
    --against: May I?'s random playouts ran 7 % slower that way than with a type test).
    """

    name: str = ""
    # deals short and moves fast enough for a bot's playout to reach the deal's end
    short_deals: bool = False
    # a take brings only cards every view shows (May I?: the pile's top), so its event is
    # public; a Canasta take brings the pile below the top too, hidden from the views (and
    # kept private even where reveal_discard_pile shows it: hiding more leaks nothing)
    public_takes: bool = False

    @abstractmethod
    def legal_moves(self, state: S) -> list[M]:
        """Of the awaited seat, cached on the state."""

    @abstractmethod
    def legal_moves_for(self, state: S, seat: int) -> list[M]:
        """Of one seat (May I? buy windows)."""

    @abstractmethod
    def apply(self, state: S, move: Move, seat: int | None) -> S:
        ...

    @abstractmethod
    def canonicalize(self, state: S, move: Move) -> Move:
        ...

    @abstractmethod
    def next_deal(self, state: S, deck: Sequence[Card | str] | None) -> S:
        ...

    @abstractmethod
    def seat_view(self, state: S, seat: int) -> Any:
        """An engine.views.SeatView."""

    @abstractmethod
    def provisional_score(self, state: S) -> tuple[SideResult, ...]:
        ...

    @abstractmethod
    def export_position(self, state: S) -> str:
        ...

    @abstractmethod
    def evolve(self, state: S, **changes: Any) -> S:
        """A copy with some fields changed, no legal-move cache."""

    @abstractmethod
    def redact(self, state: S, seat: int) -> S:
        """What a seat may know, as a state (engine.observation)."""

    @abstractmethod
    def pile_taken(self, state: S) -> tuple[Card, ...]:
        """The pile cards a take brings."""

    @abstractmethod
    def red_threes(self, state: S) -> tuple[tuple[Card, ...], ...]:
        """Laid per seat (none in May I?)."""

    def upgraded(self, state: S) -> S:
        """A state decoded from a snapshot an older engine sealed, with what it lacks filled
        in (a field added since, at its default there, given its value); ``state`` itself
        when it lacks nothing (engine.codec.decode_state)."""
        return state

    @abstractmethod
    def check_reachable(self, state: S) -> None:
        """Refuse a state play cannot make (engine.bounds)."""

    @abstractmethod
    def to_move(self, state: S, seat: int) -> S:
        """The state with this seat to move (for a bot)."""

    @abstractmethod
    def random_move(self, state: S, rng: random.Random) -> M:
        ...

    @abstractmethod
    def greedy_move(self, state: S, rng: random.Random) -> M:
        ...

    @abstractmethod
    def ranking(self, state: S) -> tuple[list[M], list[float], Callable[[M], bool]]:
        """The legal moves, the expert's preference of each, and whether it may play it
        (engine.bots.ranked_moves)."""

    @abstractmethod
    def own_move(self, state: S, rng: random.Random) -> M:
        """The expert's own move in its playouts (the other seats play greedy)."""

    @abstractmethod
    def redeal(self, state: S, seat: int, rng: random.Random) -> S:
        """The cards ``seat`` cannot see dealt again (engine.observation.redeal)."""

    @abstractmethod
    def playout_value(self, state: S, seat: int, hand_credit: float) -> float:
        """How good a playout's last state is for ``seat``, by what the game is won by
        (``hand_credit``: the share of the cards in hand counted before the end)."""


_GAMES: Final[dict[str, Game[Any, Any]]] = {}
# Each game's state class, once seen, to its game: a state's class belongs to one game.
_BY_CLASS: Final[dict[type, Game[Any, Any]]] = {}


def game_of(state: AnyState) -> Game[Any, Any]:
    """The game that plays ``state``: the game its rules name (``state.rules.game``),
    remembered by the state's class.

    The facade calls this twice a move, so the usual answer is one look-up keyed by a
    class: with two attribute reads and a look-up by name instead, May I?'s random
    playouts ran about 5 % more instructions (callgrind).
    """
    found = _BY_CLASS.get(type(state))
    if found is None:
        found = _BY_CLASS[type(state)] = games()[state.rules.game]
    return found


def games() -> dict[str, Game[Any, Any]]:
    """Every game by name, built on first use (the games' modules import the facade)."""
    if not _GAMES:
        from engine.canasta_game import CanastaGame
        from engine.mayi.mayi_game import MayIGame

        _GAMES.update({"canasta": CanastaGame(), "may_i": MayIGame()})
    return _GAMES
