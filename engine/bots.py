"""Bots that pick a legal move: deterministic for a seed, pure functions of the state."""

from __future__ import annotations

import random

from engine.legal import legal_moves
from engine.moves import Discard, EndHand, GoOut, Move, Undo
from engine.state import State

_COMMITS = (Discard, GoOut, EndHand)


def random_move(state: State, rng: random.Random) -> Move:
    """A uniformly random legal move.

    ``undo`` is left out while the turn can be ended, so random play moves on;
    when staged melds leave no way to end the turn, ``undo`` is one of the
    choices, so random play always backs out of a dead end.
    """
    moves = legal_moves(state)
    if any(isinstance(m, _COMMITS) for m in moves):
        moves = [m for m in moves if not isinstance(m, Undo)]
    return rng.choice(moves)
