"""Strength benchmark: the ``expert`` bot against ``greedy`` on duplicate deals.

Each deal (a seeded first hand) is played once per seating, so the luck of the
cards cancels: in a two-sided game (classic 2 and 4, Samba, Bolivia) the expert
plays every seat of one side against greedy, then the same deal again with the
sides swapped; in May I? one expert sits in each seat in turn against greedy in
all the others (as many plays as players). A play is one hand.

Per game and budget it prints, with 95 % intervals over the deals (normal
approximation; the ratio by a seeded bootstrap over the deals):

* ``hands``: the expert side's share of hands won: the higher hand score in the
  Canasta family (a tie counts half); going out in May I?;
* ``points``: the expert side's share of the points, ``E / (E + G)`` over all plays
  (E, G: the sums of the hand scores of the expert's side and of greedy's); in May I?
  the share of *penalty* points against the greedy seats' mean (below 0.5 is better);
* ``margin``: the mean hand-score difference, expert minus greedy, per play (May I?:
  penalty points, so below 0 is better);
* the expert's decision time: median and 95th percentile of the CPU time of one
  decision (``time.thread_time``, so other load on the machine does not count).

The rules let a May I? deal go on for ever when nobody gives up a card the others
need; a deal still going after :data:`MAX_PLIES` moves is scored as a dead deal (every
hand scores, nobody went out) and counted in the row's ``unended``.

Results go to ``bench/results/expert.json``. ``make bench-bots`` runs it in full
(100 deals per game); ``--deals`` makes a quick run.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import time
from pathlib import Path
from typing import cast

from engine import BUILD, Phase, apply, new_game
from engine.bots import greedy_move, suggest_move
from engine.expert import default_budget
from engine.mayi.state import AnyState, MayIState
from engine.mayi.transitions import end_deal

RESULTS = Path(__file__).parent / "results" / "expert.json"
GAMES: tuple[tuple[str, int], ...] = (
    ("classic", 2), ("classic", 4), ("samba", 4), ("bolivia", 4), ("bolivia_sevens", 4),
    ("may_i", 4),
)
Z95 = 1.96
MAX_PLIES = 3000  # a May I? play still going after this many moves is stopped and counted
BOOTSTRAP = 1000


def seatings(state: AnyState) -> list[tuple[int, ...]]:
    """The expert's seats in each play of a deal."""
    if isinstance(state, MayIState):
        return [(s,) for s in range(state.rules.players)]
    return [tuple(team) for team in state.rules.layout.teams]


def play(variant: str, players: int, deal: int, seats: tuple[int, ...],
         budget: int) -> dict[str, object]:
    """One hand of deal ``deal`` with the expert in ``seats``: its result and timings."""
    state = new_game(variant, players, seed=deal)
    rng = random.Random(deal)
    times: list[float] = []
    for _ in range(MAX_PLIES):
        if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            break
        if state.awaited in seats:
            t0 = time.thread_time()
            move = suggest_move(state, "expert", seed=deal, budget=budget)
            times.append(time.thread_time() - t0)
        else:
            move = greedy_move(state, rng)
        state = apply(state, move)
    unended = state.result is None
    if unended and isinstance(state, MayIState):
        # nobody gives up a card the others need: score the hands as a dead deal (MI-STOCK-2)
        state = end_deal(state, -1)
    result = state.result
    assert result is not None, "a Canasta hand always ends (test_every_hand_ends)"
    if isinstance(state, MayIState):
        mine = result.sides[seats[0]].total
        others = [r.total for r in result.sides if r.team != seats[0]]
        theirs = sum(others) / len(others)
        won = 1.0 if result.went_out == seats[0] else 0.0
    else:
        team = state.rules.layout.seat_team[seats[0]]
        mine = next(r.total for r in result.sides if r.team == team)
        theirs = next(r.total for r in result.sides if r.team != team)
        won = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return {"won": won, "mine": mine, "theirs": theirs, "times": times, "unended": unended}


def _deal(args: tuple[str, int, int, int]) -> list[dict[str, object]]:
    variant, players, deal, budget = args
    first = new_game(variant, players, seed=deal)
    return [play(variant, players, deal, seats, budget) for seats in seatings(first)]


def interval(values: list[float], low: float = -1e18,
              high: float = 1e18) -> tuple[float, float, float]:
    """The mean and its 95 % interval (normal approximation), within [low, high]."""
    mean = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return mean, max(low, mean - half), min(high, mean + half)


def _share(deals: list[list[dict[str, object]]]) -> float | None:
    mine = sum(float(str(p["mine"])) for d in deals for p in d)
    theirs = sum(float(str(p["theirs"])) for d in deals for p in d)
    return mine / (mine + theirs) if mine + theirs > 0 and min(mine, theirs) >= 0 else None


def summarize(variant: str, players: int, budget: int,
              deals: list[list[dict[str, object]]]) -> dict[str, object]:
    """The row of one game and budget (see the module's docstring)."""
    hands = interval([statistics.fmean(float(str(p["won"])) for p in d) for d in deals], 0, 1)
    margin = interval([statistics.fmean(float(str(p["mine"])) - float(str(p["theirs"]))
                                         for p in d) for d in deals])
    share = _share(deals)
    rng = random.Random(0)
    boot = [s for s in (_share(rng.choices(deals, k=len(deals))) for _ in range(BOOTSTRAP))
            if s is not None]
    boot.sort()
    times = sorted(t for d in deals for p in d for t in cast(list[float], p["times"]))
    return {
        "variant": variant, "players": players, "budget": budget, "deals": len(deals),
        "build": BUILD,
        "plays": sum(len(d) for d in deals),
        "hands_won": [round(x, 3) for x in hands],
        "points_share": None if share is None else [
            round(share, 3), round(boot[int(0.025 * len(boot))], 3),
            round(boot[int(0.975 * len(boot)) - 1], 3)],
        "margin": [round(x, 1) for x in margin],
        "unended": sum(bool(p["unended"]) for d in deals for p in d),
        "decisions": len(times),
        "decision_ms": {"median": round(1000 * statistics.median(times), 1),
                        "p95": round(1000 * times[int(0.95 * len(times)) - 1], 1)},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=100, help="duplicate deals per game")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first deal")
    parser.add_argument("--budget", type=int, action="append", default=[],
                        help="expert playouts (repeatable; default: each game's own, "
                             "engine.expert.DEFAULT_BUDGETS)")
    parser.add_argument("--jobs", type=int, default=min(2, multiprocessing.cpu_count()))
    parser.add_argument("--game", action="append", default=[],
                        help="only these games, as VARIANT:PLAYERS (repeatable)")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--merge", action="store_true",
                        help="keep the rows of --out for the games and budgets not run")
    args = parser.parse_args(argv)
    games = list(GAMES)
    if args.game:
        games = [(g.split(":")[0], int(g.split(":")[1])) for g in args.game]
    print(f"expert against greedy, {args.deals} duplicate deals per game (seeds {args.seed}.."
          f"{args.seed + args.deals - 1}), engine build {BUILD}; 95 % intervals")
    print(f"{'game':<16}{'pl':>3}{'budget':>7}{'plays':>6}  {'hands won':<20}"
          f"{'points share':<20}{'margin':<22}{'ms med':>7}{'p95':>6}")
    rows = []
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(args.jobs) as pool:
        for variant, players in games:
            for budget in args.budget or [default_budget(variant, players)]:
                jobs = [(variant, players, args.seed + i, budget) for i in range(args.deals)]
                row = summarize(variant, players, budget, pool.map(_deal, jobs, chunksize=1))
                rows.append(row)
                won, share, margin = row["hands_won"], row["points_share"], row["margin"]
                ms = row["decision_ms"]
                assert isinstance(won, list) and isinstance(margin, list)
                assert isinstance(ms, dict)
                text = "n/a" if not isinstance(share, list) else (
                    f"{share[0]:.3f} [{share[1]:.3f},{share[2]:.3f}]")
                print(f"{variant:<16}{players:>3}{budget:>7}{row['plays']:>6}  "
                      f"{f'{won[0]:.3f} [{won[1]:.3f},{won[2]:.3f}]':<20}{text:<20}"
                      f"{f'{margin[0]:+.0f} [{margin[1]:+.0f},{margin[2]:+.0f}]':<22}"
                      f"{ms['median']:>7}{ms['p95']:>6}", flush=True)
    if args.merge and args.out.exists():
        ran = {(r["variant"], r["players"], r["budget"]) for r in rows}
        kept = [r for r in json.loads(args.out.read_text())["rows"]
                if (r["variant"], r["players"], r["budget"]) not in ran]
        rows = kept + rows
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"seed": args.seed, "rows": rows}, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
