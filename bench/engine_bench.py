"""Engine benchmark: complete hands of uniform-random self-play per player count.

Prints a table and writes ``bench/results/engine.json`` (one row per variant and
player count). Every figure is in CPU time of this process (``time.process_time``):
the engine is single-threaded, so on a quiet machine that is wall time, and on a
shared one (these 2-core machines run other work) it leaves out the time this
process waits for a core. ``legal`` times ``legal_moves`` on a fresh state; ``apply``
times a checked ``apply`` on a fresh state, so it includes generating the legal list
that the move is checked against (as a service call that opens a snapshot does). The
``engine`` column says which build ran (``engine.BUILD``: ``compiled`` by mypyc after
``make setup``, or ``pure``).

``--against REV`` compares this tree's engine with the engine of commit ``REV`` side by
side in one run: REV is checked out in a scratch worktree (.cache/bench/), compiled
there as ``make native`` does, and the two engines play in alternating rounds, each
round a child process of this script with the other tree first on ``sys.path``; the
table shows each side's median hands per second and their ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from engine import BUILD, Phase, apply, legal_moves, new_game
from engine.bots import random_move
from engine.state import State, evolve

RESULTS = Path(__file__).parent / "results" / "engine.json"
ROOT = Path(__file__).resolve().parent.parent
SCRATCH = ROOT / ".cache" / "bench"


def _cold(state: State) -> State:
    """An equal state with no cached legal list."""
    return evolve(state)


def _p99(samples: list[float]) -> float:
    samples.sort()
    return samples[min(len(samples) - 1, int(len(samples) * 0.99))] * 1e6


def run(variant: str, players: int, seconds: float, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    hands = moves = 0
    legal_t: list[float] = []
    apply_t: list[float] = []
    play_time = 0.0
    clock = time.process_time
    deadline = clock() + seconds
    over = (Phase.HAND_OVER, Phase.GAME_OVER)  # looked up once: the loop is what is timed
    while clock() < deadline or hands < 5:
        state = new_game(variant, players, seed=rng.getrandbits(63))
        t0 = clock()
        while state.phase not in over:
            state = apply(state, random_move(state, rng))
            moves += 1
        play_time += clock() - t0
        hands += 1
    # latency samples on fresh states, taken from separate playouts
    for _ in range(20):
        state = new_game(variant, players, seed=rng.getrandbits(63))
        while state.phase not in over:
            cold = _cold(state)
            t0 = clock()
            listed = legal_moves(cold)
            legal_t.append(clock() - t0)
            assert listed
            move = random_move(cold, rng)
            cold = _cold(state)
            t0 = clock()
            state = apply(cold, move)
            apply_t.append(clock() - t0)
    return {
        "variant": variant,
        "players": players,
        "hands_per_s": round(hands / play_time, 1),
        "moves_per_s": round(moves / play_time),
        "legal_p99_us": round(_p99(legal_t), 1),
        "apply_p99_us": round(_p99(apply_t), 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "engine": BUILD,
    }


def _worktree(rev: str) -> Path:
    """REV's tree in a scratch worktree, its engine compiled (once per commit)."""
    commit = subprocess.run(["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=ROOT,
                            check=True, capture_output=True, text=True).stdout.strip()
    tree = SCRATCH / f"engine-{commit[:12]}"
    if not tree.exists():
        subprocess.run(["git", "worktree", "add", "--detach", str(tree), commit], cwd=ROOT,
                       check=True, capture_output=True)
    subprocess.run([sys.executable, "deploy/compile_engine.py"], cwd=tree, check=True)
    return tree


def _child(tree: Path, variant: str, players: int, seconds: float, seed: int) -> dict[str, object]:
    """One row played by the engine of ``tree``, in a process of its own."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("CANASTA_ENGINE", None)
    out = subprocess.run([sys.executable, __file__, "--row", f"{variant}:{players}",
                          "--seconds", str(seconds), "--seed", str(seed)],
                         cwd=tree, env=env, check=True, capture_output=True, text=True).stdout
    row: dict[str, object] = json.loads(out)
    return row


def against(rev: str, plan: list[tuple[str, int]], seconds: float, seed: int,
            rounds: int) -> list[dict[str, object]]:
    """Each row ``rounds`` times per engine, alternating which plays first."""
    other = _worktree(rev)
    rows = []
    for variant, players in plan:
        here: list[float] = []
        there: list[float] = []
        builds: set[object] = set()
        for r in range(rounds):
            order = [(ROOT, here), (other, there)]
            for tree, sink in (order if r % 2 == 0 else order[::-1]):
                row = _child(tree, variant, players, seconds, seed + r)
                sink.append(float(str(row["hands_per_s"])))
                builds.add(row["engine"])
        now, then = statistics.median(here), statistics.median(there)
        rows.append({"variant": variant, "players": players, "hands_per_s": round(now, 1),
                     f"at_{rev}": round(then, 1), "ratio": round(now / then, 3),
                     "engines": "/".join(sorted(map(str, builds)))})
    return rows


def _print(rows: list[dict[str, object]]) -> None:
    keys = list(rows[0])
    print(" | ".join(f"{k:>12}" for k in keys))
    for row in rows:
        print(" | ".join(f"{row[k]!s:>12}" for k in keys))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="play time per row")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", nargs="*", default=None, metavar="VARIANT",
                        help="run these variants' rows only (the results file is not written)")
    parser.add_argument("--against", metavar="REV",
                        help="compare with the engine of commit REV, side by side")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per engine (--against)")
    parser.add_argument("--row", help=argparse.SUPPRESS)  # VARIANT:PLAYERS, JSON out (a child)
    args = parser.parse_args()
    if args.row:
        variant, players = args.row.split(":")
        print(json.dumps(run(variant, int(players), args.seconds, args.seed)))
        return 0
    # May I?: a "hand" is one deal (the first of a game: two sets), hands_per_s = deals/s
    plan = [("classic", p) for p in (2, 3, 4, 5, 6)]
    plan += [(v, 4) for v in ("samba", "bolivia", "bolivia_sevens")]
    plan += [("may_i", p) for p in (3, 4, 5)]
    if args.only:
        plan = [(v, p) for v, p in plan if v in args.only]
    if args.against:
        rows = against(args.against, plan, args.seconds, args.seed, args.rounds)
        _print(rows)
        out = RESULTS.with_name("engine_against.json")
        out.write_text(json.dumps(rows, indent=2) + "\n")
        print(f"written {out}")
        return 0
    rows = [run(v, p, args.seconds, args.seed) for v, p in plan]
    _print(rows)
    if not args.only:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps(rows, indent=2) + "\n")
        print(f"written {RESULTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
