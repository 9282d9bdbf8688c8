"""Move-count ("perft") table for classic canasta: the positions, the counter, the writer.

``python -m tests.movecount_gen`` (from the repository root) rebuilds every position
below, counts its moves and writes ``tests/data/movecount/classic.txt``;
``tests/test_movecount.py`` reads that file back, rebuilds each position from what
the file says and recomputes every number.

Two numbers per position:

``legal N``
    the number of legal moves of the awaited seat at the root;
``turn N``
    the number of distinct end-of-turn positions the awaited seat can reach within
    its current turn: every sequence of moves other than ``undo``, ``ask`` and the
    answers is explored until the turn passes to another seat or the hand ends, and
    the resulting positions are compared by their ``export_position`` text without
    the ``ply:`` line. Intermediate positions are merged the same way.

A position is rebuilt either from a deal (variant, players, seed, options) followed
by ``plies`` moves of seeded random play (``random.Random(seed)`` choosing among
the legal moves other than ``undo`` and ``ask``), or from a position text.
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
from engine.mayi.state import AnyState
from engine.moves import Answer, Ask, Undo
from engine.notation import export_position, import_position

DATA = Path(__file__).parent / "data" / "movecount" / "classic.txt"
NODE_CAP = 100_000
OVER = (Phase.HAND_OVER, Phase.GAME_OVER)


@dataclass(frozen=True)
class Entry:
    """One row of the table: how to rebuild the position, and (once counted) its numbers."""

    id: str
    rules: str  # rule IDs the position exercises (a comment in the file)
    note: str = ""
    variant: str = "classic"
    players: int = 4
    seed: int = 0
    options: Mapping[str, object] = field(default_factory=dict)
    plies: int = 0
    position: str = ""  # notation text; when given it replaces the deal above
    legal: int = -1
    turn: int = -1


# --- rebuilding and counting --------------------------------------------------------


def rebuild(entry: Entry) -> AnyState:
    """The position of an entry: the notation text, or a deal plus seeded random plies
    (May I? has no ``undo`` or ``ask`` to leave out)."""
    if entry.position:
        return import_position(entry.position)
    state = new_game(entry.variant, entry.players, seed=entry.seed, options=dict(entry.options))
    rng = random.Random(entry.seed)
    for _ in range(entry.plies):
        moves = [m for m in legal_moves(state) if not isinstance(m, (Undo, Ask))]
        if not moves:
            raise ValueError(f"{entry.id}: no move to play at ply {state.ply}")
        state = apply(state, rng.choice(moves))
    return state


def position_key(state: AnyState) -> str:
    """The export text without the ``ply:`` line."""
    return "".join(ln for ln in export_position(state).splitlines(keepends=True)
                   if not ln.startswith("ply:"))


def turn_count(root: AnyState, cap: int = NODE_CAP) -> int:
    """Distinct end-of-turn positions reachable in the current turn by the seats awaited
    on the way (the player in turn; in May I? also the buy window's candidates).

    :raises RuntimeError: when more than ``cap`` intermediate positions are visited.
    """
    if root.phase in OVER:
        raise ValueError(f"the root must be a position in play, not in {root.phase}")
    seat = root.turn.seat
    hand_no = root.hand_no
    seen: set[str] = {position_key(root)}
    ends: set[str] = set()
    stack = [root]
    while stack:
        state = stack.pop()
        for move in legal_moves(state):
            if isinstance(move, (Undo, Ask, Answer)):
                continue
            after = apply(state, move)
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


# --- the file format ------------------------------------------------------------------

HEADER = """\
# Move counts ("perft") for classic canasta. Written by tests/movecount_gen.py:
#   .venv/bin/python -m tests.movecount_gen
# Checked by tests/test_movecount.py. One block per position, blocks separated by a
# blank line; '#' lines are comments (the rule IDs each position exercises).
#   id        name of the position
#   variant / players / seed / options (JSON) / plies
#             deal with this seed, then play this many plies of seeded random play
#             (random.Random(seed) choosing among the legal moves other than undo and ask)
#   position  instead of a deal: the position in the notation of docs/notation.md,
#             one line per following '| ' line
#   legal N   legal moves of the awaited seat at the root
#   turn N    distinct end-of-turn positions of the awaited seat within its turn
#             (all move sequences without undo/ask/answers, until the turn passes or the
#             hand ends; positions compared by export_position without the ply line)
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


def parse_table(text: str, variant: str = "classic") -> list[Entry]:
    """Read a table back (what the tests check against); ``variant`` is the game of the
    blocks that name none (those of written positions)."""
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
            variant=values.get("variant", variant), players=int(values.get("players", 4)),
            seed=int(values.get("seed", 0)), options=json.loads(values.get("options", "{}")),
            plies=int(values.get("plies", 0)),
            position="\n".join(position) + "\n" if position else "",
            legal=int(values["legal"]), turn=int(values["turn"]),
        ))
    return entries


# --- the positions ---------------------------------------------------------------------

POSITIONS: list[Entry] = [
    Entry("p2-deal", "CL-DEAL-1, CL-DEAL-2, CL-P2-1, CL-P2-2 (draw two), CL-PILE-3 (frozen "
          "against an unopened side), CL-MIN-1, CL-MIN-8", players=2, seed=1),
    Entry("p3-deal", "CL-DEAL-1, CL-P3-1, CL-DRAW-1, CL-PILE-3, CL-MIN-8", players=3, seed=2),
    Entry("p4-deal", "CL-DEAL-1, CL-SEAT-5, CL-OUT-4 (ask before the draw), CL-PILE-3, "
          "CL-MIN-8", players=4, seed=3),
    Entry("p5-deal", "CL-P5-1, CL-P5-2 (four active seats), CL-P5-3, CL-MIN-8",
          players=5, seed=4),
    Entry("p6-deal", "CL-P6-1, CL-P6-2, CL-P6-3 (13 cards from three packs), CL-MIN-8",
          players=6, seed=5),
    Entry("p2-mid", "CL-P2-2, CL-P2-3, CL-MELD-1, CL-MELD-6, CL-MIN-7 (opened), CL-OUT-3",
          players=2, seed=12, plies=23),
    Entry("p3-mid", "CL-P3-1, CL-MELD-5, CL-MELD-6, CL-CAN-1, CL-OUT-1, CL-OUT-3",
          players=3, seed=13, plies=113),
    Entry("p4-mid-after-take", "CL-PILE-8 (meld after taking the pile), CL-MELD-*, CL-OUT-3",
          players=4, seed=13, plies=149),
    Entry("p4-mid-unopened", "CL-MIN-1, CL-MIN-3, CL-MIN-4, CL-MIN-8 (turn_total staging)",
          players=4, seed=14, plies=5),
    Entry("p5-mid", "CL-P5-2, CL-P5-3, CL-MELD-*, CL-OUT-3", players=5, seed=16, plies=23),
    Entry("p6-mid", "CL-P6-1, CL-P6-5 (two canastas), CL-P6-9, CL-MELD-*", players=6, seed=30,
          plies=59),
    Entry("p6-three-teams-mid", "CL-P6-2 (3 teams of 2), CL-P6-5, CL-MELD-*",
          players=6, seed=15, options={"p6_teams": 3}, plies=35),
    Entry("p6-rotation-mid", "CL-P6-11 (rotation, two packs), CL-MELD-*", players=6, seed=17,
          options={"p6_mode": "rotation"}, plies=143),
    Entry("p4-batch-unopened", "CL-MIN-8 (option initial_meld_validation=batch: the whole "
          "opening in one action), CL-MIN-4", players=4, seed=30,
          options={"initial_meld_validation": "batch"}, plies=5),
    Entry("exhausted-compulsory", "CL-EXH-4 (compulsory take: no decline), CL-PILE-7c, "
          "CL-DRAW-4, CL-EXH-8", players=4, seed=103, plies=169),
    Entry("exhausted-optional", "CL-EXH-5 (optional take), CL-EXH-6 (decline ends the hand), "
          "CL-P2-4", players=2, seed=132, plies=123),
    Entry(
        "take-initial-extras",
        "CL-MIN-6 (only the top card counts), CL-PILE-3, CL-PILE-6, CL-PILE-8 (extra melds "
        "shown for the minimum), CL-MIN-7, CL-R3-6",
        note="TS-07: unopened side, pile AS AH AD 9H; 9S 9C alone count 30 < 50",
        position="""\
canasta-position 1
players: 4
phase: draw
turn: 0
pile: AS AH AD 9H
hand0: 9S 9C KH KD 2C 6S 7S 4D 5C TC JH
red3_1: 3H 3D
red3_2: 3H 3D
hand1: *11
hand2: *11
hand3: *11
stock: *
"""),
    Entry(
        "take-frozen-merge",
        "CL-PILE-4 (a deuce in the pile freezes it for both), CL-PILE-6 (natural pair), "
        "AMB-23 (pair and top merge into the existing meld), CL-PILE-5, CL-PILE-8",
        note="TS-09 shape: NS opened with K and 8 melds; pile 7C 2S 5D 8D",
        position="""\
canasta-position 1
players: 4
phase: draw
turn: 0
pile: 7C 2S 5D 8D
hand0: 8C 8S QS QC 9D 6S 4H JD TC 5H
melds0: K@2: KS KH KD | 8@2: 8H 8H 2D
opened: 1 0
melded: 0 0 1 0
red3_0: 3H
red3_3: 3H 3D 3D
hand1: *11
hand2: *8
hand3: *11
stock: *
"""),
    Entry(
        "take-unfrozen-ways",
        "CL-PILE-7 (a) natural pair, (b) natural plus wild, (c) top card onto the side's "
        "meld, CL-MELD-1 (three-wild limit), CL-MELD-5",
        note="NS opened with a J meld; pile 4H JD unfrozen; N holds JC JH 2C JK",
        position="""\
canasta-position 1
players: 4
phase: draw
turn: 0
pile: 4H JD
hand0: JC JH 2C JK 6C 7D 9S
melds0: J@2: JS JH JC
opened: 1 0
melded: 0 0 1 0
red3_1: 3H 3D
red3_2: 3H 3D
hand1: *11
hand2: *8
hand3: *11
stock: *
"""),
    Entry(
        "permission-yes-strict",
        "CL-OUT-5 (after 'yes' no discard while going out is possible), CL-OUT-4, CL-OUT-1, "
        "CL-MELD-6",
        note="TS-29: NS has a K canasta and 7S 7D 7C; N asked before drawing, S said yes, "
        "N drew 7H",
        position="""\
canasta-position 1
players: 4
phase: meld
turn: 0
drew: stock
asked: 1 yes draw
asks: 1 0 0 0
pile: 9C
hand0: 8S 8C 8D 5H 7H
melds0: K@0: KS KH KD KC KS KH KD | 7@2: 7S 7D 7C
opened: 1 0
melded: 1 0 1 0
red3_1: 3H 3D
red3_2: 3H 3D
hand1: *11
hand2: *11
hand3: *11
stock: *
"""),
    Entry(
        "permission-none",
        "CL-OUT-7 (going out without asking), CL-OUT-1, CL-OUT-4, CL-DISC-1",
        note="the position of permission-yes-strict before any question",
        position="""\
canasta-position 1
players: 4
phase: meld
turn: 0
drew: stock
pile: 9C
hand0: 8S 8C 8D 5H 7H
melds0: K@0: KS KH KD KC KS KH KD | 7@2: 7S 7D 7C
opened: 1 0
melded: 1 0 1 0
red3_1: 3H 3D
red3_2: 3H 3D
hand1: *11
hand2: *11
hand3: *11
stock: *
"""),
    Entry(
        "permission-no",
        "CL-OUT-6 ('no': the asker may not go out this turn), CL-OUT-3, CL-MELD-11",
        note="the same position after N asked and S said no",
        position="""\
canasta-position 1
players: 4
phase: meld
turn: 0
drew: stock
asked: 1 no draw
asks: 1 0 0 0
pile: 9C
hand0: 8S 8C 8D 5H 7H
melds0: K@0: KS KH KD KC KS KH KD | 7@2: 7S 7D 7C
opened: 1 0
melded: 1 0 1 0
red3_1: 3H 3D
red3_2: 3H 3D
hand1: *11
hand2: *11
hand3: *11
stock: *
"""),
    Entry(
        "black-threes-out",
        "CL-MELD-3 (black threes only when going out), CL-OUT-1, CL-OUT-2 (no discard), "
        "CL-OUT-9, CL-OUT-14",
        note="TS-23: NS has a K natural canasta and a 6 meld; N holds 3S 3C 3S KC after drawing",
        position="""\
canasta-position 1
players: 4
phase: meld
turn: 0
drew: stock
pile: 9H
hand0: 3S 3C 3S KC
melds0: K@0: KS KH KD KC KS KH KD | 6@2: 6S 6H 6D
opened: 1 0
melded: 1 0 1 0
red3_1: 3H 3D
red3_2: 3H 3D
hand1: *11
hand2: *11
hand3: *11
stock: *
"""),
    Entry(
        "two-canastas-keep-card",
        "CL-P2-3 (two canastas to go out), CL-OUT-3, CL-MELD-11",
        note="TS-39: one canasta; adding QC QD would leave a lone card",
        position="""\
canasta-position 1
players: 2
phase: meld
turn: 0
drew: stock
pile: 7H
hand0: QC QD 4D
melds0: K@0: KS KH KD KC KS KH KD | Q@0: QS QH QD
opened: 1 0
melded: 1 0
red3_0: 3H 3D
red3_1: 3H 3D
hand1: *15
stock: *
"""),
    Entry(
        "last-red-three",
        "CL-EXH-1, CL-EXH-2 (a red three as the last stock card ends the hand), CL-R3-2, "
        "CL-PILE-7c, CL-EXH-3",
        note="a real late position (4 players, seed 100, 165 plies) with its last stock card "
        "swapped for a red three",
        position="""\
canasta-position 1
variant: classic
players: 4
options: -
seed: 100
hand: 0
dealer: 3
scores: 0 0
phase: draw
turn: 1
drew: -
asked: 0 - draw
created: -
flags: 0 0
stock: 3D
pile: 9S QD 9S
hand0: 5S
hand1: 3C 3C 4D 5C 7H 8S KC
hand2: 8D 9D 9C
hand3: 3S 3S QH QC QC KH AH AH AD AC AC
melds0: 7@0: 7D 7C JK | 8@2: 8S 8H 8H 8D 8C 8C JK | T@2: TS TH TH TD TC 2S 2C | J@0: JS JH JH
melds1: 4@1: 4S 4S 4H 4H 4D 4C 4C 2D 2C | 5@3: 5S 5H 5H 5D 5D 5C | 6@3: 6S 6S 6H 6H 6D 6D 6C 6C | 7@3: 7S 7S 7H 7D 7C | 9@3: 9H 9H 9D 9C 2H | T@1: TS TD TC | J@3: JS JD JD JC JC 2H 2D JK | Q@3: QS QS QH QD | K@1: KS KS KH KD KD KC | A@1: AS AS AD 2S JK
red3_0: 3H
red3_1: 3D
red3_2: -
red3_3: 3H
opened: 1 1
melded: 1 1 1 1
pending_red3: 0 0 0 0
asks: 0 0 0 0
penalties: 0 0
"""),
]


def generate(entries: list[Entry], header: str = HEADER) -> str:
    """A table's text: ``header``, then each entry counted."""
    blocks = [header]
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
