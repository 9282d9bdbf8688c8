"""The Canasta family (classic, Samba, Bolivia, Bolivia with sevens) as a
:class:`~engine.games.Game`: each method hands the state to the family's own module."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from engine import bots, bounds, game, legal, notation, observation, play, views
from engine.cards import Card
from engine.games import Game
from engine.moves import Move
from engine.state import SideResult, evolve


class CanastaGame(Game):
    name = "canasta"

    def legal_moves(self, state: Any) -> list[Move]:
        return legal.canasta_legal_moves(state)

    def legal_moves_for(self, state: Any, seat: int) -> list[Move]:
        return legal.canasta_legal_moves_for(state, seat)

    def apply(self, state: Any, move: Move, seat: int | None) -> Any:
        return play.canasta_apply(state, move, seat)

    def canonicalize(self, state: Any, move: Move) -> Move:
        return play.canasta_canonicalize(state, move)

    def next_deal(self, state: Any, deck: Sequence[Card | str] | None) -> Any:
        return game.canasta_next_deal(state, deck)

    def seat_view(self, state: Any, seat: int) -> Any:
        return views.canasta_seat_view(state, seat)

    def provisional_score(self, state: Any) -> tuple[SideResult, ...]:
        return views.canasta_provisional_score(state)

    def export_position(self, state: Any) -> str:
        return notation.canasta_export_position(state)

    def evolve(self, state: Any, **changes: Any) -> Any:
        return evolve(state, **changes)

    def redact(self, state: Any, seat: int) -> Any:
        return observation.canasta_redact(state, seat)

    def pile_taken(self, state: Any) -> tuple[Card, ...]:
        taken: tuple[Card, ...] = state.pile
        return taken

    def red_threes(self, state: Any) -> tuple[tuple[Card, ...], ...]:
        laid: tuple[tuple[Card, ...], ...] = state.red3
        return laid

    def check_reachable(self, state: Any) -> None:
        bounds.canasta_check_reachable(state)

    def to_move(self, state: Any, seat: int) -> Any:
        return state

    def random_move(self, state: Any, rng: random.Random) -> Move:
        return bots.canasta_random_move(state, rng)

    def greedy_move(self, state: Any, rng: random.Random) -> Move:
        return bots.canasta_greedy_move(state, rng)

    def ranking(self, state: Any) -> tuple[list[Move], list[float], Callable[[Move], bool]]:
        return bots.canasta_ranking(state)

    def redeal(self, state: Any, seat: int, rng: random.Random) -> Any:
        return observation.canasta_redeal(state, seat, rng)

    def own_move(self, state: Any, rng: random.Random) -> Move:
        return bots.canasta_greedy_move(state, rng)

    def playout_value(self, state: Any, seat: int, hand_credit: float) -> float:
        return views.canasta_standing(state, seat, hand_credit)
