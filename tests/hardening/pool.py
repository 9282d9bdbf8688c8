"""Real positions for the hardening tests: random play through every variant, sealed by the
server under test, with the legal moves of each (as the API spells them)."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass

from engine import Phase, apply, legal_moves
from engine.bots import random_move
from engine.game import new_game, next_deal
from engine.notation import export_position
from engine.state import State
from engine.variants import catalogue
from service import convert
from service.pb import game
from service.snapshot import Sealer, new_game_id

OVER = (Phase.HAND_OVER, Phase.GAME_OVER)
# The fuzzing budget: generated cases per REST operation and generation mode (make test: 55;
# make fuzz raises it); the gRPC and snapshot fuzzers scale with it.
EXAMPLES = int(os.environ.get("CANASTA_FUZZ_EXAMPLES", "55"))


@dataclass(frozen=True)
class Position:
    """A sealed snapshot, its seq, its legal moves as ``game.Move`` messages, whether its hand
    is over, and its position text."""

    snapshot: bytes
    seq: int
    moves: tuple[game.Move, ...]
    over: bool
    text: str


def states(seed: int = 7) -> list[State]:
    """Deals, early and mid-hand turns and finished hands of every variant and player count,
    plus the first position of a next deal."""
    out: list[State] = []
    rng = random.Random(seed)
    for info in catalogue():
        for players in range(info.min_players, info.max_players + 1):
            state = new_game(info.id, players, seed=rng.randrange(1 << 32))
            trail = [state]
            while state.phase not in OVER and len(trail) < 3000:
                state = apply(state, random_move(state, rng))
                trail.append(state)
            picks = {0, 1, 2, 3, len(trail) // 3, len(trail) // 2, len(trail) - 2,
                     len(trail) - 1}
            out += [trail[i] for i in sorted(picks) if 0 <= i < len(trail)]
            if trail[-1].phase is Phase.HAND_OVER:
                out.append(next_deal(trail[-1]))
    return out


def _move_pb(move: object) -> game.Move:
    msg = game.Move()
    convert.move_to_pb(move, msg)  # type: ignore[arg-type]
    return msg


def sealed(sealer: Sealer, seed: int = 7) -> list[Position]:
    """:func:`states` sealed with ``sealer`` (seq = the position's index in its game)."""
    out = []
    for i, state in enumerate(states(seed)):
        blob, _ = sealer.seal(state, new_game_id(), i % 5, i % 7 == 0)
        moves = () if state.phase in OVER else tuple(_move_pb(m) for m in legal_moves(state))
        out.append(Position(blob, i % 5, moves, state.phase in OVER, export_position(state)))
    return out
