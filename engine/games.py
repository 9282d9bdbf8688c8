"""The games of the engine as peers: the Canasta family and May I?, one interface.

A :class:`Game` is what the facade needs of a game: its legal moves, its moves, its
views, its score, its notation, what a seat may know of it and its bots. The facade
(``engine.legal_moves``, ``engine.apply``, ``engine.views.seat_view``, ...) finds a
state's game from its rules (``state.rules.game``) and hands the state over; it never
asks which type a state is. A new game is one more :class:`Game` here.

>>> from engine.game import new_game
>>> game_of(new_game("may_i", 3)).name, game_of(new_game("samba", 4)).name
('may_i', 'canasta')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from engine.cards import Card
from engine.mayi.state import AnyState
from engine.moves import Move
from engine.state import SideResult


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Game:
    """One game: every function takes and returns that game's own states."""

    name: str
    legal_moves: Callable[[Any], list[Move]]  # of the awaited seat, cached on the state
    legal_moves_for: Callable[[Any, int], list[Move]]  # of one seat (May I? buy windows)
    apply: Callable[[Any, Move, int | None], Any]
    canonicalize: Callable[[Any, Move], Move]
    next_deal: Callable[[Any, Sequence[Card | str] | None], Any]
    seat_view: Callable[[Any, int], Any]  # engine.views.SeatView
    provisional_score: Callable[[Any], tuple[SideResult, ...]]
    export_position: Callable[[Any], str]
    evolve: Callable[..., Any]  # a copy with some fields changed, no legal-move cache
    redact: Callable[[Any, int], Any]  # what a seat may know, as a state (engine.observation)
    pile_taken: Callable[[Any], tuple[Card, ...]]  # the pile cards a take brings
    red_threes: Callable[[Any], tuple[tuple[Card, ...], ...]]  # laid per seat (none in May I?)
    check_reachable: Callable[[Any], None]  # refuse a state play cannot make (engine.bounds)
    to_move: Callable[[Any, int], Any]  # the state with this seat to move (for a bot)
    bots: Mapping[str, Callable[[Any, random.Random], Move]]


_GAMES: dict[str, Game] = {}


def game_of(state: AnyState) -> Game:
    """The game that plays ``state`` (on every call of the facade: one dict look-up once
    the games are built)."""
    found = _GAMES.get(state.rules.game)
    return games()[state.rules.game] if found is None else found


def games() -> dict[str, Game]:
    """Every game by name, built on first use (the games' modules import the facade)."""
    if not _GAMES:
        _GAMES.update({"canasta": _canasta(), "may_i": _may_i()})
    return _GAMES


def _canasta() -> Game:
    from engine import bots, bounds, game, legal, notation, observation, play, state, views

    return Game(
        name="canasta", legal_moves=legal.canasta_legal_moves,
        legal_moves_for=legal.canasta_legal_moves_for, apply=play.canasta_apply,
        canonicalize=play.canasta_canonicalize, next_deal=game.canasta_next_deal,
        seat_view=views.canasta_seat_view, provisional_score=views.canasta_provisional_score,
        export_position=notation.canasta_export_position, evolve=state.evolve,
        redact=observation.canasta_redact, pile_taken=lambda s: s.pile,
        red_threes=lambda s: s.red3,
        check_reachable=bounds.canasta_check_reachable, to_move=lambda s, seat: s,
        bots={"random": bots.canasta_random_move, "greedy": bots.canasta_greedy_move})


def _may_i() -> Game:
    from engine import bots, bounds, observation
    from engine.mayi import game, legal, notation, play, successor, views

    return Game(
        name="may_i", legal_moves=legal.legal_moves, legal_moves_for=legal.legal_moves_for,
        apply=play.apply, canonicalize=play.canonicalize, next_deal=game.next_deal,
        seat_view=views.seat_view, provisional_score=views.provisional_score,
        export_position=notation.export_position, evolve=successor.evolve,
        redact=observation.mayi_redact, pile_taken=lambda s: s.pile[-1:],
        red_threes=lambda s: ((),) * s.rules.players,
        check_reachable=bounds.mayi_check_reachable,
        to_move=lambda s, seat: s if seat == s.awaited else observation.answering_first(s, seat),
        bots={"random": bots.mayi_random_move, "greedy": bots.mayi_greedy_move})
