"""A seeded demo hand played by random bots, printed move by move with the score.

It makes the calls a host makes, on the service core in this process (no server:
snapshots sealed with a throw-away key). ``Deal`` answers the game's credentials;
each bot plays its own seat with that seat's token (``SuggestMove`` + ``ApplyMove``),
so it is advised and answered from what its seat may see; a move sent without a
token (a spectator's) is refused; the host token scores the hand.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from google.protobuf.message import Message

from service.api.core import Call, Core
from service.api.errors import ServiceError
from service.api.pb import api, game
from service.sealing.keys import KeyRing, new_key_entry
from service.sealing.snapshot import Sealer


class Host:
    """The calls of a host on an in-process core, each presenting a credential (or none)."""

    def __init__(self) -> None:
        self.core = Core(Sealer(KeyRing.parse(new_key_entry("demo")), 1 << 20, 64))

    def call(self, name: str, request: Message, token: str | None = None) -> Any:
        """One RPC by name, as the given token's holder.

        :raises ServiceError: the call is refused.
        """
        bearer = (f"Bearer {token}",) if token else ()
        return self.core.handle(name, request, Call(authorization=bearer))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play one seeded demo hand with bots.")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    out = sys.stdout
    host = Host()
    # the host's answer carries the public view only: it shows no hand to this output
    dealt = host.call("Deal", api.DealRequest(variant="classic", players=args.players,
                                              seed=args.seed, view_seat=-1))
    seats = list(dealt.seat_tokens)
    out.write(f"classic canasta, {args.players} players, seed {args.seed}\n")
    out.write(f"credentials: a host token and {len(seats)} seat tokens; "
              "each bot plays with its own seat's token\n")
    snapshot, awaited = dealt.snapshot, dealt.views[0].awaited
    spectator_tried = False
    while awaited >= 0:
        token = seats[awaited]
        hint = host.call("SuggestMove", api.SuggestMoveRequest(
            snapshot=snapshot, level="random", seed=args.seed), token)
        move: game.Move = hint.move
        if not spectator_tried:
            spectator_tried = True
            try:
                host.call("ApplyMove", api.ApplyMoveRequest(snapshot=snapshot, move=move))
            except ServiceError as err:
                out.write(f"seat {awaited}'s first move sent without a token (a spectator's): "
                          f"refused, {err.reason}\n")
        done = host.call("ApplyMove", api.ApplyMoveRequest(snapshot=snapshot, move=move), token)
        out.write(f"{done.header.seq:4d}  seat {done.seat}: {done.move.text}\n")
        snapshot, awaited = done.snapshot, -1 if done.hand_over else done.awaited
    score = host.call("ScoreHand", api.ScoreHandRequest(snapshot=snapshot), dealt.host_token)
    how = ("the stock ran out" if score.went_out < 0
           else f"seat {score.went_out} went out" + (" concealed" if score.concealed else ""))
    out.write(f"hand over: {how}\n")
    for side in score.sides:
        b = side.breakdown
        out.write(
            f"team {side.team}: melds {b.base}, canastas {b.canasta_bonus}, "
            f"going out {b.going_out}, red threes {b.red_three_points}, "
            f"in hand {-b.in_hand} => {side.total} (cumulative {side.cumulative})\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
