"""The Canasta family (classic, Samba, Bolivia, Bolivia with sevens) as a
:class:`~engine.games.Game`: each method hands the state to the family's own module."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine import bots, bounds, game, legal, notation, observation, play, scoring, views
from engine.bots import Ranking
from engine.cards import Card
from engine.games import Game
from engine.moves import CanastaMove, Move
from engine.state import SideResult, State, evolve


class CanastaGame(Game[State, CanastaMove]):
    name = "canasta"

    def legal_moves(self, state: State) -> list[CanastaMove]:
        return legal.canasta_legal_moves(state)

    def legal_moves_for(self, state: State, seat: int) -> list[CanastaMove]:
        return legal.canasta_legal_moves_for(state, seat)

    def apply(self, state: State, move: Move, seat: int | None) -> State:
        return play.canasta_apply(state, move, seat)

    def canonicalize(self, state: State, move: Move) -> Move:
        return play.canasta_canonicalize(state, move)

    def next_deal(self, state: State, deck: Sequence[Card | str] | None) -> State:
        return game.canasta_next_deal(state, deck)

    def seat_view(self, state: State, seat: int) -> Any:
        return views.canasta_seat_view(state, seat)

    def provisional_score(self, state: State) -> tuple[SideResult, ...]:
        return views.canasta_provisional_score(state)

    def export_position(self, state: State) -> str:
        return notation.canasta_export_position(state)

    def evolve(self, state: State, **changes: Any) -> State:
        return evolve(state, **changes)

    def redact(self, state: State, seat: int) -> State:
        return observation.canasta_redact(state, seat)

    def upgraded(self, state: State) -> State:
        return scoring.with_tallies(state)  # a result sealed before its canastas by kind

    def pile_taken(self, state: State) -> tuple[Card, ...]:
        taken: tuple[Card, ...] = state.pile
        return taken

    def red_threes(self, state: State) -> tuple[tuple[Card, ...], ...]:
        laid: tuple[tuple[Card, ...], ...] = state.red3
        return laid

    def check_reachable(self, state: State) -> None:
        bounds.canasta_check_reachable(state)

    def to_move(self, state: State, seat: int) -> State:
        return state

    def random_move(self, state: State, rng: random.Random) -> CanastaMove:
        return bots.canasta_random_move(state, rng)

    def greedy_move(self, state: State, rng: random.Random) -> CanastaMove:
        return bots.canasta_greedy_move(state, rng)

    def ranking(self, state: State) -> Ranking[CanastaMove]:
        return bots.canasta_ranking(state)

    def redeal(self, state: State, seat: int, rng: random.Random) -> State:
        return observation.canasta_redeal(state, seat, rng)

    def own_move(self, state: State, rng: random.Random) -> CanastaMove:
        return bots.canasta_greedy_move(state, rng)

    def playout_value(self, state: State, seat: int, hand_credit: float) -> float:
        return views.canasta_standing(state, seat, hand_credit)
