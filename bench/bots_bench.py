"""Bot benchmark: ``greedy`` against ``random``, whole seeded matches per game.

A match is a whole game at the variant's normal target (no target option is
changed unless ``--option`` says so). In a partnership game greedy plays every
seat of one team and random the other team's seats, the teams alternating from
match to match; two-handed games alternate the seats the same way; in a game of
three or more players each for himself, greedy sits in seat 0 against random in
every other seat. A match counts as a greedy win when greedy's team (or seat)
alone wins the game; a drawn game is not a win.

Prints the table and writes ``bench/results/bots.json``; exits 1 when greedy
wins less than ``--need`` of the matches of some game.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from pathlib import Path

from engine import Phase, apply, new_game, next_deal
from engine.bots import greedy_move, random_move
from engine.variants import VARIANTS

RESULTS = Path(__file__).parent / "results" / "bots.json"
MAX_PLIES = 200_000  # per match: a stalled match is reported, not waited for

# (variant, players) in table order; games not in engine.variants.VARIANTS are skipped.
GAMES: tuple[tuple[str, int], ...] = (
    ("classic", 2), ("classic", 3), ("classic", 4), ("classic", 5), ("classic", 6),
    ("samba", 4), ("bolivia", 4), ("bolivia_sevens", 4),
    ("may_i", 3), ("may_i", 4), ("may_i", 5),
)


def play_match(variant: str, players: int, seed: int,
               options: dict[str, str] | None = None) -> dict[str, object]:
    """One match; returns who won and how long it took."""
    state = new_game(variant, players, seed=seed, options=options or None)
    teams = state.rules.layout.teams
    # two sides (partnerships or two hands): alternate; else greedy in seat 0
    greedy_team = seed % 2 if len(teams) == 2 else state.rules.layout.team_of(0)
    greedy_seats = set(teams[greedy_team])
    rng = random.Random(seed)
    hands = plies = 0
    while True:
        while state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
            bot = greedy_move if state.awaited in greedy_seats else random_move
            state = apply(state, bot(state, rng))
            plies += 1
            if plies > MAX_PLIES:
                return {"win": False, "draw": False, "stalled": True, "hands": hands,
                        "plies": plies}
        hands += 1
        if state.phase is Phase.GAME_OVER:
            break
        state = next_deal(state)
    result = state.result
    assert result is not None
    return {"win": result.winner == greedy_team and not result.draw, "draw": result.draw,
            "stalled": False, "hands": hands, "plies": plies}


def _job(args: tuple[str, int, int, dict[str, str]]) -> dict[str, object]:
    return play_match(*args)


def run(variant: str, players: int, matches: int, seed: int, options: dict[str, str],
        pool: multiprocessing.pool.Pool) -> dict[str, object]:
    t0 = time.perf_counter()
    jobs = [(variant, players, seed + i, options) for i in range(matches)]
    results = pool.map(_job, jobs, chunksize=4)
    seconds = time.perf_counter() - t0
    wins = sum(1 for r in results if r["win"])
    return {
        "variant": variant,
        "players": players,
        "options": options,
        "matches": matches,
        "greedy_wins": wins,
        "win_rate": round(wins / matches, 4),
        "draws": sum(1 for r in results if r["draw"]),
        "stalled": sum(1 for r in results if r["stalled"]),
        "hands_per_match": round(sum(int(str(r["hands"])) for r in results) / matches, 2),
        "plies_per_match": round(sum(int(str(r["plies"])) for r in results) / matches),
        "seconds": round(seconds, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=200, help="matches per game")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first match")
    parser.add_argument("--need", type=float, default=0.9, help="least greedy win rate")
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--game", action="append", default=[],
                        help="only these games, as VARIANT:PLAYERS (repeatable)")
    parser.add_argument("--option", action="append", default=[],
                        help="VARIANT:NAME=VALUE rule option (repeatable; reported)")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    games = [(v, p) for v, p in GAMES if v in VARIANTS]
    if args.game:
        wanted = {(g.split(":")[0], int(g.split(":")[1])) for g in args.game}
        games = [g for g in games if g in wanted] + sorted(wanted - set(games))
    options: dict[str, dict[str, str]] = {}
    for text in args.option:
        variant, _, pair = text.partition(":")
        name, _, value = pair.partition("=")
        options.setdefault(variant, {})[name] = value
    print(f"greedy against random, {args.matches} seeded matches per game "
          f"(seeds {args.seed}..{args.seed + args.matches - 1})")
    print(f"{'game':<16}{'players':>8}{'wins':>7}{'rate':>8}{'draws':>7}{'stalled':>8}"
          f"{'hands':>7}{'plies':>7}{'s':>7}")
    rows = []
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(args.jobs) as pool:
        for variant, players in games:
            row = run(variant, players, args.matches, args.seed, options.get(variant, {}), pool)
            rows.append(row)
            mark = "" if float(str(row["win_rate"])) >= args.need else "  < need"
            print(f"{variant:<16}{players:>8}{row['greedy_wins']:>7}"
                  f"{float(str(row['win_rate'])):>8.1%}{row['draws']:>7}{row['stalled']:>8}"
                  f"{row['hands_per_match']:>7}{row['plies_per_match']:>7}"
                  f"{row['seconds']:>7}{mark}", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"matches": args.matches, "seed": args.seed,
                                    "need": args.need, "rows": rows}, indent=2) + "\n")
    print(f"wrote {args.out}")
    weak = [r for r in rows if float(str(r["win_rate"])) < args.need]
    if weak:
        print(f"greedy won less than {args.need:.0%} in: "
              + ", ".join(f"{r['variant']}/{r['players']}" for r in weak), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
