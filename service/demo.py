"""A seeded demo hand played by random bots, printed move by move with the score."""

from __future__ import annotations

import argparse
import random
import sys

from engine import Phase, apply, new_game
from engine.bots import random_move
from engine.views import provisional_score


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play one seeded demo hand with bots.")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    state = new_game("classic", args.players, seed=args.seed)
    rng = random.Random(args.seed)
    out = sys.stdout
    out.write(f"classic canasta, {args.players} players, seed {args.seed}\n")
    while state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
        seat = state.awaited
        move = random_move(state, rng)
        state = apply(state, move)
        out.write(f"{state.ply:4d}  seat {seat}: {move}\n")
    assert state.result is not None
    how = ("the stock ran out" if state.result.went_out < 0
           else f"seat {state.result.went_out} went out"
           + (" concealed" if state.result.concealed else ""))
    out.write(f"hand over: {how}\n")
    for side in provisional_score(state):
        out.write(
            f"team {side.team}: melds {side.base}, canastas {side.canasta_bonus}, "
            f"going out {side.going_out}, red threes {side.red_three_points}, "
            f"in hand -{side.in_hand} => {side.total} (cumulative {side.cumulative})\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
