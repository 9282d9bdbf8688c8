"""May I?: the expert's own play without search against greedy, over many deals.

The expert's search in May I? orders its candidates and plays its own seat's moves by
:func:`engine.mayi.bots.own_move` (docs/bots.md). This measures that policy alone, as
it was tuned: one seat plays it against three greedy players, in each seat in turn, on
deal 1 of seeded games, and the share of deals it goes out first is printed with a
95 % interval over the deals (normal approximation). ``--policy greedy`` measures
greedy in that seat instead (an even share is 1 / players). A policy takes no search,
so thousands of deals take seconds: ``bench/expert_bench.py`` measures the expert.
A play still going after :data:`MAX_PLIES` moves counts as not won, and the number
of such plays is printed (the rules let a deal go on for ever).

    .venv/bin/python bench/mayi_policy_bench.py --deals 3000 --seed 5001
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from expert_bench import MAX_PLIES, interval  # noqa: E402  (bench/ is first on sys.path)

from engine import apply, new_game  # noqa: E402
from engine.bots import greedy_move  # noqa: E402
from engine.mayi.bots import own_move  # noqa: E402

POLICIES = {"own": own_move, "greedy": greedy_move}


def _deal(args: tuple[str, int, int]) -> tuple[float, int]:
    """The share of the seats in which the policy went out first in deal ``deal``, and
    the seats whose play had not ended after :data:`MAX_PLIES` moves (the rules allow
    a deal in which nobody gives up a card the others need to go on for ever)."""
    policy, players, deal = args
    play = POLICIES[policy]
    won = unended = 0
    for seat in range(players):
        state = new_game("may_i", players, seed=deal)
        others = random.Random(deal)
        mine = random.Random(-deal)
        for _ in range(MAX_PLIES):
            if state.result is not None:
                break
            move = play(state, mine) if state.awaited == seat else greedy_move(state, others)
            state = apply(state, move)
        won += state.result is not None and state.result.went_out == seat
        unended += state.result is None
    return won / players, unended


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=5001, help="seed of the first deal")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--policy", choices=sorted(POLICIES), default="own")
    parser.add_argument("--jobs", type=int, default=min(2, multiprocessing.cpu_count()))
    args = parser.parse_args(argv)
    jobs = [(args.policy, args.players, args.seed + i) for i in range(args.deals)]
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        results = pool.map(_deal, jobs, chunksize=20)
    mean, low, high = interval([share for share, _ in results], 0, 1)
    print(f"May I? {args.players} players, {args.policy} in one seat against greedy, "
          f"{args.deals} deals (seeds {args.seed}..{args.seed + args.deals - 1}): "
          f"went out first in {mean:.3f} [{low:.3f}, {high:.3f}]; "
          f"plays unended after {MAX_PLIES} moves: {sum(n for _, n in results)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
