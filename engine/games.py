"""The games of the engine as peers: the Canasta family and May I?, one interface.

A :class:`Game` is what the facade needs of a game: its legal moves, its moves, its
views, its score, its notation, what a seat may know of it and its bots. The facade
(``engine.legal_moves``, ``engine.apply``, ``engine.views.seat_view``, ...) finds a
state's game from its rules (``state.rules.game``) and hands the state over; it never
asks which type a state is. Each game is a subclass in its own module
(engine/canasta_game.py, engine/mayi/mayi_game.py); a new game is one more subclass,
registered in :func:`games`.

>>> from engine.game import new_game
>>> game_of(new_game("may_i", 3)).name, game_of(new_game("samba", 4)).name
('may_i', 'canasta')
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, Final

from engine.cards import Card
from engine.mayi.state import AnyState
from engine.moves import Move
from engine.state import SideResult


class Game(ABC):
    """One game: every method takes and returns that game's own states.

    A native (compiled) class hierarchy: the facade calls a game's
    methods on every move, and a method of a compiled class is a direct call where a
    function kept in an object is a Python call (measured with bench/engine_bench.py
    --against: May I?'s random playouts ran 7 % slower that way than with a type test).
    """

    name: str = ""
    # deals short and moves fast enough for a bot's playout to reach the deal's end
    short_deals: bool = False

    @abstractmethod
    def legal_moves(self, state: Any) -> list[Move]:
        """Of the awaited seat, cached on the state."""

    @abstractmethod
    def legal_moves_for(self, state: Any, seat: int) -> list[Move]:
        """Of one seat (May I? buy windows)."""

    @abstractmethod
    def apply(self, state: Any, move: Move, seat: int | None) -> Any:
        ...

    @abstractmethod
    def canonicalize(self, state: Any, move: Move) -> Move:
        ...

    @abstractmethod
    def next_deal(self, state: Any, deck: Sequence[Card | str] | None) -> Any:
        ...

    @abstractmethod
    def seat_view(self, state: Any, seat: int) -> Any:
        """An engine.views.SeatView."""

    @abstractmethod
    def provisional_score(self, state: Any) -> tuple[SideResult, ...]:
        ...

    @abstractmethod
    def export_position(self, state: Any) -> str:
        ...

    @abstractmethod
    def evolve(self, state: Any, **changes: Any) -> Any:
        """A copy with some fields changed, no legal-move cache."""

    @abstractmethod
    def redact(self, state: Any, seat: int) -> Any:
        """What a seat may know, as a state (engine.observation)."""

    @abstractmethod
    def pile_taken(self, state: Any) -> tuple[Card, ...]:
        """The pile cards a take brings."""

    @abstractmethod
    def red_threes(self, state: Any) -> tuple[tuple[Card, ...], ...]:
        """Laid per seat (none in May I?)."""

    @abstractmethod
    def check_reachable(self, state: Any) -> None:
        """Refuse a state play cannot make (engine.bounds)."""

    @abstractmethod
    def to_move(self, state: Any, seat: int) -> Any:
        """The state with this seat to move (for a bot)."""

    @abstractmethod
    def random_move(self, state: Any, rng: random.Random) -> Move:
        ...

    @abstractmethod
    def greedy_move(self, state: Any, rng: random.Random) -> Move:
        ...

    @abstractmethod
    def ranking(self, state: Any) -> tuple[list[Move], list[float], Callable[[Move], bool]]:
        """The legal moves, the expert's preference of each, and whether it may play it
        (engine.bots.ranked_moves)."""

    @abstractmethod
    def own_move(self, state: Any, rng: random.Random) -> Move:
        """The expert's own move in its playouts (the other seats play greedy)."""

    @abstractmethod
    def redeal(self, state: Any, seat: int, rng: random.Random) -> Any:
        """The cards ``seat`` cannot see dealt again (engine.observation.redeal)."""

    @abstractmethod
    def playout_value(self, state: Any, seat: int, hand_credit: float) -> float:
        """How good a playout's last state is for ``seat``, by what the game is won by
        (``hand_credit``: the share of the cards in hand counted before the end)."""


_GAMES: Final[dict[str, Game]] = {}
# Each game's state class, once seen, to its game: a state's class belongs to one game.
_BY_CLASS: Final[dict[type, Game]] = {}


def game_of(state: AnyState) -> Game:
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


def games() -> dict[str, Game]:
    """Every game by name, built on first use (the games' modules import the facade)."""
    if not _GAMES:
        from engine.canasta_game import CanastaGame
        from engine.mayi.mayi_game import MayIGame

        _GAMES.update({"canasta": CanastaGame(), "may_i": MayIGame()})
    return _GAMES
