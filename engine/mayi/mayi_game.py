"""May I? as a :class:`~engine.games.Game`: each method hands the state to engine/mayi."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine import bots, bounds, observation
from engine.bots import Ranking
from engine.cards import Card
from engine.games import Game
from engine.mayi import bots as mayi_bots
from engine.mayi import game, legal, notation, play, successor, views
from engine.mayi.moves import MayIMove
from engine.mayi.state import MayIState
from engine.moves import Move
from engine.state import SideResult


class MayIGame(Game[MayIState, MayIMove]):
    name = "may_i"
    short_deals = True
    public_takes = True

    def legal_moves(self, state: MayIState) -> list[MayIMove]:
        return legal.legal_moves(state)

    def legal_moves_for(self, state: MayIState, seat: int) -> list[MayIMove]:
        return legal.legal_moves_for(state, seat)

    def apply(self, state: MayIState, move: Move, seat: int | None) -> MayIState:
        return play.apply(state, move, seat)

    def canonicalize(self, state: MayIState, move: Move) -> Move:
        return play.canonicalize(state, move)

    def next_deal(self, state: MayIState, deck: Sequence[Card | str] | None) -> MayIState:
        return game.next_deal(state, deck)

    def seat_view(self, state: MayIState, seat: int) -> Any:
        return views.seat_view(state, seat)

    def provisional_score(self, state: MayIState) -> tuple[SideResult, ...]:
        return views.provisional_score(state)

    def export_position(self, state: MayIState) -> str:
        return notation.export_position(state)

    def evolve(self, state: MayIState, **changes: Any) -> MayIState:
        return successor.evolve(state, **changes)

    def redact(self, state: MayIState, seat: int) -> MayIState:
        return observation.mayi_redact(state, seat)

    def pile_taken(self, state: MayIState) -> tuple[Card, ...]:
        taken: tuple[Card, ...] = state.pile[-1:]  # a take (or a buy) brings the top card
        return taken

    def red_threes(self, state: MayIState) -> tuple[tuple[Card, ...], ...]:
        none: tuple[tuple[Card, ...], ...] = ((),) * state.rules.players  # none in May I?
        return none

    def check_reachable(self, state: MayIState) -> None:
        bounds.mayi_check_reachable(state)

    def to_move(self, state: MayIState, seat: int) -> MayIState:
        return state if seat == state.awaited else observation.answering_first(state, seat)

    def random_move(self, state: MayIState, rng: random.Random) -> MayIMove:
        return bots.mayi_random_move(state, rng)

    def greedy_move(self, state: MayIState, rng: random.Random) -> MayIMove:
        return mayi_bots.greedy_move(state, rng)

    def ranking(self, state: MayIState) -> Ranking[MayIMove]:
        return mayi_bots.ranking(state)

    def own_move(self, state: MayIState, rng: random.Random) -> MayIMove:
        return mayi_bots.own_move(state, rng)

    def redeal(self, state: MayIState, seat: int, rng: random.Random) -> MayIState:
        return observation.mayi_redeal(state, seat, rng)

    def playout_value(self, state: MayIState, seat: int, hand_credit: float) -> float:
        return mayi_bots.playout_value(state, seat)
