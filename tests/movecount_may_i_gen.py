"""Move-count ("perft") table for May I?: the positions, the counter, the writer.

``python -m tests.movecount_may_i_gen`` (from the repository root) rebuilds every
position below, counts its moves and writes ``tests/data/movecount/may_i.txt``;
``tests/test_movecount_may_i.py`` reads that file back, rebuilds each position from
what the file says and recomputes every number. The file has the format of the
classic table (``tests/data/movecount/classic.txt``).

Two numbers per position:

``legal N``
    the number of legal moves of the awaited seat at the root;
``turn N``
    the number of distinct positions that end the current turn: every sequence of
    moves of the awaited seats (the player in turn, and the buy-window candidates
    whose answer is due) is explored until the turn passes to another player or the
    deal ends; positions are compared by their ``export_position`` text without the
    ``ply:`` line, intermediate positions merged the same way.

A position is rebuilt either from a deal (players, seed, options) followed by
``plies`` moves of seeded random play (``random.Random(seed)`` choosing among the
legal moves), or from a position text.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from engine import Phase, apply, legal_moves, new_game
from engine.mayi.state import MayIState
from engine.notation import export_position, import_position

DATA = Path(__file__).parent / "data" / "movecount" / "may_i.txt"
NODE_CAP = 100_000
OVER = (Phase.HAND_OVER, Phase.GAME_OVER)


@dataclass(frozen=True)
class Entry:
    """One row of the table: how to rebuild the position, and (once counted) its numbers."""

    id: str
    rules: str  # rule IDs the position exercises (a comment in the file)
    note: str = ""
    variant: str = "may_i"
    players: int = 4
    seed: int = 0
    options: Mapping[str, object] = field(default_factory=dict)
    plies: int = 0
    position: str = ""
    legal: int = -1
    turn: int = -1


def rebuild(entry: Entry) -> MayIState:
    """The position of an entry: the notation text, or a deal plus seeded random plies."""
    if entry.position:
        state = import_position(entry.position)
    else:
        state = new_game(entry.variant, entry.players, seed=entry.seed,
                         options=dict(entry.options))
        rng = random.Random(entry.seed)
        for _ in range(entry.plies):
            moves = legal_moves(state)
            if not moves:
                raise ValueError(f"{entry.id}: no move to play at ply {state.ply}")
            state = apply(state, rng.choice(moves))
    assert isinstance(state, MayIState)
    return state


def position_key(state: MayIState) -> str:
    """The export text without the ``ply:`` line."""
    return "".join(ln for ln in export_position(state).splitlines(keepends=True)
                   if not ln.startswith("ply:"))


def turn_count(root: MayIState, cap: int = NODE_CAP) -> int:
    """Distinct positions that end the current turn (see the module docstring).

    :raises RuntimeError: when more than ``cap`` intermediate positions are visited.
    """
    if root.phase in OVER:
        raise ValueError("the root must be a position in play")
    seat, hand_no = root.turn.seat, root.hand_no
    seen = {position_key(root)}
    ends: set[str] = set()
    stack = [root]
    while stack:
        state = stack.pop()
        for move in legal_moves(state):
            after = apply(state, move)
            assert isinstance(after, MayIState)
            key = position_key(after)
            if after.phase in OVER or after.turn.seat != seat or after.hand_no != hand_no:
                ends.add(key)
            elif key not in seen:
                seen.add(key)
                if len(seen) > cap:
                    raise RuntimeError(f"more than {cap} positions in one turn")
                stack.append(after)
    return len(ends)


def count(entry: Entry) -> tuple[int, int]:
    """(legal moves at the root, distinct end-of-turn positions)."""
    state = rebuild(entry)
    return len(legal_moves(state)), turn_count(state)


HEADER = """\
# Move counts ("perft") for May I?. Written by tests/movecount_may_i_gen.py:
#   .venv/bin/python -m tests.movecount_may_i_gen
# Checked by tests/test_movecount_may_i.py. One block per position, blocks separated by a
# blank line; '#' lines are comments (the rule IDs each position exercises).
#   id        name of the position
#   variant / players / seed / options (JSON) / plies
#             deal with this seed, then play this many plies of seeded random play
#             (random.Random(seed) choosing among the legal moves)
#   position  instead of a deal: the position in the May I? notation, one line per '| ' line
#   legal N   legal moves of the awaited seat at the root
#   turn N    distinct positions ending the current turn (all move sequences of the awaited
#             seats, buy answers included, until the turn passes or the deal ends;
#             positions compared by export_position without the ply line)
"""


def format_entry(entry: Entry) -> str:
    lines = [f"id: {entry.id}", f"# {entry.rules}"]
    if entry.note:
        lines.append(f"# {entry.note}")
    if entry.position:
        lines.append("position:")
        lines += [f"| {ln}" for ln in entry.position.strip().splitlines()]
    else:
        lines += [
            f"variant: {entry.variant}",
            f"players: {entry.players}",
            f"seed: {entry.seed}",
            f"options: {json.dumps(dict(entry.options), sort_keys=True)}",
            f"plies: {entry.plies}",
        ]
    lines += [f"legal {entry.legal}", f"turn {entry.turn}"]
    return "\n".join(lines) + "\n"


def parse_table(text: str) -> list[Entry]:
    """Read the table back (what the test checks against)."""
    entries: list[Entry] = []
    for block in text.split("\n\n"):
        values: dict[str, str] = {}
        comments: list[str] = []
        position: list[str] = []
        for line in block.splitlines():
            if line.startswith("#"):
                comments.append(line[1:].strip())
            elif line.startswith("|"):
                position.append(line[2:] if line.startswith("| ") else line[1:])
            elif line.startswith(("legal ", "turn ")):
                key, _, value = line.partition(" ")
                values[key] = value.strip()
            elif ":" in line:
                key, _, value = line.partition(":")
                values[key.strip()] = value.strip()
        if "id" not in values:
            continue
        entries.append(Entry(
            id=values["id"], rules=comments[0] if comments else "",
            variant=values.get("variant", "may_i"), players=int(values.get("players", 4)),
            seed=int(values.get("seed", 0)), options=json.loads(values.get("options", "{}")),
            plies=int(values.get("plies", 0)),
            position="\n".join(position) + "\n" if position else "",
            legal=int(values["legal"]), turn=int(values["turn"]),
        ))
    return entries


POSITIONS: list[Entry] = [
    Entry("p3-deal", "MI-DEAL-2, MI-TURN-1 (first turn: draw only)", players=3, seed=1),
    Entry("p4-deal-upcard", "MI-DEAL-2, option turn_upcard (take or draw, buy window on the "
          "upcard), MI-BUY-3", players=4, seed=2, options={"turn_upcard": True}),
    Entry("p4-mid", "MI-TURN-2, MI-BUY-1..5, MI-CON-1, MI-OFF-*", players=4, seed=3, plies=60),
    Entry("p5-mid", "MI-BUY-3 (four candidates), MI-TURN-2", players=5, seed=4, plies=41),
    Entry("p3-late", "MI-OFF-2/3, MI-STOCK-1", players=3, seed=5, plies=150),
    Entry(
        "two-sets",
        "MI-CON-1, MI-CON-2 (exact sizes: 4 ways for the sevens x 2 other sets), MI-OFF-1",
        note="MI-T1 hand after the draw",
        position="""\
mayi-position 1
players: 4
phase: meld
turn: 1
drew: stock
hand1: 7S 7H 7D 7C KC KS KD 5C 5D 5H 9H
hand0: *10
hand2: *10
hand3: *10
pile: *5
stock: *
"""),
    Entry(
        "two-runs",
        "MI-CON-3 (contiguous runs refused, overlapping allowed), MI-MELD-2, MI-MELD-3",
        note="MI-T3 hand, deal 3",
        position="""\
mayi-position 1
players: 4
hand: 2
phase: meld
turn: 1
drew: stock
hand1: 3S 4S 5S 6S 7S 8S 9S TS JS QS 4S 5S 6S 7S
hand0: *10
hand2: *10
hand3: *10
pile: *5
stock: *
"""),
    Entry(
        "buy-window",
        "MI-BUY-1..5 (P2 declines 9H; P3 then P4 are asked in rotation order)",
        note="MI-T5: P1 discarded 9H, P2 in turn",
        position="""\
mayi-position 1
players: 4
phase: draw
turn: 1
discarder: 0
hand0: *10
hand1: *10
hand2: *10
hand3: *10
pile: *6 9H
stock: *
"""),
    Entry(
        "layoffs",
        "MI-OFF-1..3 (sets and runs, own and others' melds), MI-OUT-1",
        note="P2 is down and may lay off on four melds",
        position="""\
mayi-position 1
players: 4
phase: meld
turn: 1
drew: stock
melds1: KS KD KC | 5S 5D 5C
melds2: 9S 9H 9C | 2S 3S 4S 5S
hand1: 9D 9D AS 6S 7S KH
hand0: *10
hand2: *10
hand3: *10
pile: *5
stock: *
"""),
    Entry(
        "deal5-minimum-sizes",
        "MI-CON-2 (option contract_exact_sizes=false), MI-OUT-2",
        note="deal 5: two sets and a run, longer pieces allowed",
        position="""\
mayi-position 1
players: 3
options: contract_exact_sizes=false
hand: 4
phase: meld
turn: 0
drew: stock
hand0: 5S 5H 5D 5C 9C 9D 9H 3S 4S 5S 6S 7S
hand1: *10
hand2: *10
pile: *5
stock: *
"""),
]


def generate(entries: list[Entry]) -> str:
    blocks = [HEADER]
    for entry in entries:
        t0 = time.perf_counter()
        legal, turn = count(entry)
        took = time.perf_counter() - t0
        if took > 1.0:
            print(f"warning: {entry.id} took {took:.2f}s", file=sys.stderr)
        print(f"{entry.id:24s} legal {legal:4d}  turn {turn:6d}  {took:6.3f}s")
        blocks.append(format_entry(replace(entry, legal=legal, turn=turn)))
    return "\n".join(blocks)


def main() -> int:
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_text(generate(POSITIONS))
    print(f"wrote {DATA}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
