"""Bots that pick a legal move: deterministic for a seed, pure functions of the state."""

from __future__ import annotations

import random

from engine.legal import legal_moves
from engine.moves import Move, Undo
from engine.state import State


def random_move(state: State, rng: random.Random) -> Move:
    """A uniformly random legal move (``undo`` excluded, so a turn always moves on)."""
    moves = [m for m in legal_moves(state) if not isinstance(m, Undo)]
    return rng.choice(moves)
