"""Real positions for the hardening tests: random play through every variant, sealed by the
server under test, with the legal moves of each (as the API spells them) and the game's
credentials (the host and seat tokens the server answers for that game: tokens are
deterministic per key, game and role, service/sealing/tokens.py)."""

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
from service.api import convert
from service.api.pb import game
from service.sealing import tokens
from service.sealing.snapshot import Sealer, new_game_id

OVER = (Phase.HAND_OVER, Phase.GAME_OVER)
# The fuzzing budget: generated cases per REST operation and generation mode (make test: 55;
# make fuzz raises it); the gRPC and snapshot fuzzers scale with it.
EXAMPLES = int(os.environ.get("CANASTA_FUZZ_EXAMPLES", "55"))


@dataclass(frozen=True)
class Position:
    """A sealed snapshot, its seq, its legal moves (the awaited seat's) as ``game.Move``
    messages, whether its hand is over, its position text, and its game: the game id (UUID
    text, as ``expected_game_id`` takes it), the awaited seat, the game's credentials, and
    whether the snapshot is marked imported (what CANASTA_EXPORT_POLICY=imported exports)."""

    snapshot: bytes
    seq: int
    moves: tuple[game.Move, ...]
    over: bool
    text: str
    game_id: str
    players: int
    awaited: int
    host_token: str
    seat_tokens: tuple[str, ...]
    imported: bool = False

    @property
    def mover_token(self) -> str:
        """The awaited seat's token: the credential a player's own client sends (a hand
        that is over awaits no one)."""
        assert self.awaited >= 0, "no seat is awaited once the hand is over"
        return self.seat_tokens[self.awaited]


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
    """:func:`states` sealed with ``sealer`` (seq = the position's index in its game), each in
    a game of its own, with that game's credentials as the server issues them."""
    out = []
    for i, state in enumerate(states(seed)):
        game_id = new_game_id()
        imported = i % 7 == 0
        blob, header = sealer.seal(state, game_id, i % 5, imported)
        moves = () if state.phase in OVER else tuple(_move_pb(m) for m in legal_moves(state))
        host, seats = tokens.issue_all(sealer.keys, game_id, state.rules.players)
        out.append(Position(blob, i % 5, moves, state.phase in OVER, export_position(state),
                            header.game_uuid, state.rules.players, state.awaited, host,
                            tuple(seats), imported))
    return out
