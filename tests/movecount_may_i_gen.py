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

from dataclasses import dataclass
from pathlib import Path

from tests.movecount_gen import Entry, generate

DATA = Path(__file__).parent / "data" / "movecount" / "may_i.txt"


@dataclass(frozen=True)
class MayIEntry(Entry):
    """A row of the May I? table (the classic table's rows, in May I? by default)."""

    variant: str = "may_i"


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


POSITIONS: list[Entry] = [
    MayIEntry("p3-deal", "MI-DEAL-2, MI-TURN-1 (first turn: draw only)", players=3, seed=1),
    MayIEntry("p4-deal-upcard", "MI-DEAL-2, option turn_upcard (take or draw, buy window on the "
          "upcard), MI-BUY-3", players=4, seed=2, options={"turn_upcard": True}),
    MayIEntry("p4-mid", "MI-TURN-2, MI-BUY-1..5, MI-CON-1, MI-OFF-*", players=4, seed=3, plies=60),
    MayIEntry("p5-mid", "MI-BUY-3 (four candidates), MI-TURN-2", players=5, seed=4, plies=41),
    MayIEntry("p3-late", "MI-OFF-2/3, MI-STOCK-1", players=3, seed=5, plies=150),
    MayIEntry(
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
    MayIEntry(
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
    MayIEntry(
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
    MayIEntry(
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
    MayIEntry(
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


def main() -> int:
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_text(generate(POSITIONS, HEADER))
    print(f"wrote {DATA}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
