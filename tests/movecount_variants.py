"""Move-count ("perft") tables for Samba, Bolivia and Bolivia with sevens.

Same file format, counters and rebuild rules as ``tests/movecount_gen.py`` (see its
docstring for ``legal`` and ``turn``); one file per variant in ``tests/data/movecount``.
``python -m tests.movecount_variants`` (from the repository root) recounts every
position below and rewrites the three files; ``tests/test_movecount_variants.py``
recomputes every number. Positions were picked from seeded playouts so that a whole
turn stays countable (a Samba turn with a full hand has far too many orders of melds).
"""

from __future__ import annotations

from pathlib import Path

from tests.movecount_gen import HEADER, Entry, generate

DIR = Path(__file__).parent / "data" / "movecount"
NAMES = {"samba": "Samba", "bolivia": "Bolivia", "bolivia_sevens": "Bolivia with sevens"}
# rule prefixes a position may cite (Bolivia with sevens is Bolivia with overrides)
PREFIX = {"samba": ("SA-",), "bolivia": ("BO-",), "bolivia_sevens": ("SV-", "BO-")}


def _fill(text: str) -> str:
    return text.replace("@HANDS", "hand1: *15\nhand2: *15\nhand3: *15\nstock: *")


POSITIONS: dict[str, list[Entry]] = {
    "samba": [
        Entry("samba-deal", "SA-DEAL-2, SA-DEAL-4 (dealt red threes laid at the deal), "
              "SA-DRAW-1, SA-PILE-6 (frozen against an unopened side), SA-INIT-1",
              variant="samba", seed=1),
        Entry("samba-take-on", "SA-PILE-1, SA-PILE-3 (take on a labelled meld), SA-PILE-5",
              variant="samba", seed=2, plies=44),
        Entry("samba-merge", "SA-MELD-5, SA-MELD-6 (merge two groups of a rank), SA-MELD-2",
              variant="samba", seed=1, plies=61),
        Entry("samba-sequence", "SA-SEQ-1..5 (sequences and additions at both ends), "
              "SA-MELD-2", variant="samba", seed=2, plies=111),
        Entry("samba-sequence-2", "SA-SEQ-1..6, SA-MELD-5, SA-OUT-4",
              variant="samba", seed=3, plies=87),
        Entry("samba-exhausted", "SA-END-3 (the stock is gone: a fitting pile must be taken)",
              variant="samba", seed=2, plies=164),
        Entry(
            "samba-take-extras",
            "SA-PILE-1, SA-PILE-9, SA-INIT-1 (150 from 7000), SA-SEQ-7 (a sequence among the "
            "melds shown)",
            note="SA-T9: NS at 7200, unopened; the top AS, N holds AH AD JK KS KH 6H 7H 8H",
            position=_fill("""\
canasta-position 1
variant: samba
players: 4
scores: 7200 0
phase: draw
turn: 0
pile: TC 4D AS
hand0: AH AD JK KS KH 6H 7H 8H 4C
red3_1: 3H 3D
red3_2: 3H 3D
red3_3: 3H 3D
@HANDS
""")),
        Entry(
            "samba-black-threes-out",
            "SA-B3-1 (black threes only as the last cards of a going out), SA-OUT-1, SA-OUT-2",
            note="SA-T11: NS owns a K canasta and a samba; N holds 3S 3C 3C QS QH QD",
            position=_fill("""\
canasta-position 1
variant: samba
players: 4
phase: meld
turn: 0
drew: stock
pile: 9C
hand0: 3S 3C 3C QS QH QD
melds0: K@0: KS KH KD KC KS KH KD | H:5-J@2: 5H 6H 7H 8H 9H TH JH
opened: 1 0
melded: 1 0 1 0
red3_1: 3H 3D
red3_2: 3H 3D
red3_3: 3H 3D
@HANDS
""")),
    ],
    "bolivia": [
        Entry("bolivia-deal", "BO-DEAL-1, BO-DRAW-1, BO-PILE-1..9, BO-INIT-1",
              variant="bolivia", seed=1),
        Entry("bolivia-exhausted", "BO-END-2, BO-END-3 (the last discard may be taken; "
              "decline ends the deal)", variant="bolivia", seed=1, plies=166),
        Entry("bolivia-take-on", "BO-PILE-1..9 (pair or extension onto a labelled meld)",
              variant="bolivia", seed=2, plies=52),
        Entry("bolivia-merge", "BO-MELD-1, BO-MELD-2 (merge groups), BO-WILD-1",
              variant="bolivia", seed=1, plies=106),
        Entry("bolivia-wild", "BO-WILD-2, BO-WILD-3 (melds of wild cards), BO-SEQ-1",
              variant="bolivia", seed=6, plies=4),
        Entry("bolivia-small-hand", "BO-OUT-1, BO-OUT-2 (two cards kept before the discard)",
              variant="bolivia", seed=1, plies=124),
        Entry(
            "bolivia-black-threes",
            "BO-B3-1, BO-B3-2, BO-INIT-2 (black threes do not open), BO-OUT-1",
            note="BO-T5: NS unopened at 0; N holds four black threes, Q-Q-Q and 5-5-5",
            position=_fill("""\
canasta-position 1
variant: bolivia
players: 4
phase: meld
turn: 0
drew: stock
pile: 9C
hand0: 3S 3C 3C 3S QS QH QD 5H 5D 5C 9D
red3_1: 3H 3D
red3_2: 3H 3D
red3_3: 3H 3D
@HANDS
""")),
    ],
    "bolivia_sevens": [
        Entry("sv-deal", "SV-INIT-1, BO-DEAL-1, BO-DRAW-1", variant="bolivia_sevens", seed=1),
        Entry("sv-exhausted", "BO-END-3, SV-CAN-1", variant="bolivia_sevens", seed=2,
              plies=141),
        Entry("sv-take-on", "BO-PILE-3, SV-CAN-1 (no pile route past seven cards)",
              variant="bolivia_sevens", seed=1, plies=12),
        Entry("sv-bonus-due", "SV-BONUS-1, SV-BONUS-2 (the deal's first canasta draws eleven "
              "cards), SV-CAN-1", variant="bolivia_sevens", seed=4, plies=18),
        Entry("sv-sequence", "BO-SEQ-1, BO-SEQ-2, SV-CAN-1", variant="bolivia_sevens",
              seed=1, plies=97),
        Entry("sv-wild", "BO-WILD-2, SV-CAN-3", variant="bolivia_sevens", seed=2, plies=23),
        Entry(
            "sv-bonus-few-cards",
            "SV-BONUS-1, SV-BONUS-4 (fewer than eleven cards left), BO-END-2, BO-OUT-1",
            note="SV-T3: W completes the first canasta with six stock cards left",
            position="""\
canasta-position 1
variant: bolivia_sevens
players: 4
phase: meld
turn: 3
drew: stock
stock: 4C 5D 6S 8C 9D TS
hand3: KD 9S 4H 6H JC QD
melds1: K@1: KS KH KD KC KS KH | Q@3: QS QH QC
opened: 0 1
melded: 0 1 0 1
red3_0: 3H 3D
red3_1: 3H 3D
red3_2: 3H 3D
hand0: *15
hand1: *15
hand2: *15
pile: *
"""),
    ],
}


def header(variant: str) -> str:
    return (HEADER.replace("for classic canasta", f"for {NAMES[variant]}")
            .replace("tests/movecount_gen.py", "tests/movecount_variants.py")
            .replace("-m tests.movecount_gen", "-m tests.movecount_variants")
            .replace("tests/test_movecount.py", "tests/test_movecount_variants.py"))


def path(variant: str) -> Path:
    return DIR / f"{variant}.txt"


def main() -> int:
    for variant, entries in POSITIONS.items():
        path(variant).write_text(generate(entries, header(variant)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
