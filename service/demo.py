"""A seeded demo hand played by random bots, printed move by move with the score.

It makes the calls a host makes, on the service core in this process (the embedded
engine of ``canasta play``: snapshots sealed with a throw-away key). ``Deal`` answers
the game's credentials; each bot plays its own seat with that seat's token
(``SuggestMove`` + ``ApplyMove``), so it is advised and answered from what its seat
may see; a move sent without a token (a spectator's) is refused; the host token
scores the hand.
"""

from __future__ import annotations

import argparse
import sys

from service.table import EmbeddedClient, TableError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play one seeded demo hand with bots.")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    out = sys.stdout
    client = EmbeddedClient()
    # the host's answer carries the public view only: it shows no hand to this output
    dealt = client.deal("classic", args.players, seed=args.seed, view_seat=-1)
    host, seats = dealt.host_token, list(dealt.seat_tokens)
    out.write(f"classic canasta, {args.players} players, seed {args.seed}\n")
    out.write(f"credentials: a host token and {len(seats)} seat tokens; "
              "each bot plays with its own seat's\n")
    snapshot, awaited = dealt.snapshot, dealt.views[0].awaited
    spectator_tried = False
    while awaited >= 0:
        token = seats[awaited]
        hint = client.suggest_move(snapshot, "random", args.seed, token=token)
        if not spectator_tried:
            spectator_tried = True
            try:
                client.apply_move(snapshot, hint.move)
            except TableError as err:
                out.write(f"seat {awaited}'s first move sent without a token (a spectator's): "
                          f"refused, {err.reason}\n")
        done = client.apply_move(snapshot, hint.move, token=token)
        out.write(f"{done.header.seq:4d}  seat {done.seat}: {done.move.text}\n")
        snapshot, awaited = done.snapshot, -1 if done.hand_over else done.awaited
    score = client.score_hand(snapshot, token=host)
    how = ("the stock ran out" if score.went_out < 0
           else f"seat {score.went_out} went out" + (" concealed" if score.concealed else ""))
    out.write(f"hand over: {how}\n")
    for side in score.sides:
        b = side.breakdown
        out.write(
            f"team {side.team}: melds {b.base}, canastas {b.canasta_bonus}, "
            f"going out {b.going_out}, red threes {b.red_three_points}, "
            f"in hand -{b.in_hand} => {side.total} (cumulative {side.cumulative})\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
