"""Meld kinds, meld labels and the shapes of the family's extra melds.

A side's melds are a tuple of :class:`~engine.state.MeldPile`, kept in a stable
order by their *rank code*:

==============  ===================  =================================================
rank code       kind                 label (``add <label> cards``)
==============  ===================  =================================================
``4`` .. ``A``  group of that rank   the rank character: ``K``
``3``           black threes         ``3``
``13``          wild cards only      ``W`` (BO-WILD-2)
``14 + suit``   sequence of a suit   suit, lowest and highest rank: ``S:5-9`` (SA-SEQ)
==============  ===================  =================================================

Melds with the same base label (two king groups, say) are told apart by an
ordinal: ``K`` is the first in the side's order, ``K#2`` the second, and so on.
A new meld goes after the melds with its rank code, so labels stay put while a
meld grows (a sequence's label follows its range). Identical melds are one
target: moves name only the first of them.

>>> seq_label(SEQ_RANK + 1, 3, 9)
'H:5-J'
>>> parse_label("s:q-a#2")
(14, 'S:Q-A#2')
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from engine.cards import (
    ACE,
    CARDS,
    FOUR,
    JOKER,
    RANK,
    RANK_CHARS,
    SUIT,
    SUIT_CHARS,
    THREE,
    Card,
)
from engine.errors import BadMove, Reason
from engine.moves import Group, canonical_group
from engine.numerals import unsigned
from engine.rules import RuleSet
from engine.state import SEQ_RANK as SEQ_RANK
from engine.state import WILD_RANK as WILD_RANK
from engine.state import MeldPile

SEQ_MAX: Final = 7  # a sequence of seven is a samba / escalera and closed (SA-SEQ-5, BO-SEQ-2)
WILD_MAX: Final = 7  # seven wild cards are a bolivia and closed (BO-WILD-2)
SEQ_MIN_RANK: Final = FOUR  # SA-SEQ-2: 4 is the lowest card, the ace the highest

GROUP: Final = "group"
BLACK_THREES: Final = "black_threes"
WILD: Final = "wild"
SEQUENCE: Final = "sequence"


def kind_of(rank: int) -> str:
    """The kind of a meld from its rank code."""
    if rank >= SEQ_RANK:
        return SEQUENCE
    if rank == WILD_RANK:
        return WILD
    return BLACK_THREES if rank == THREE else GROUP


def seq_label(rank: int, low: int, high: int) -> str:
    return f"{SUIT_CHARS[rank - SEQ_RANK]}:{RANK_CHARS[low]}-{RANK_CHARS[high]}"


def seq_range(meld: MeldPile) -> tuple[int, int]:
    """Lowest and highest rank of a sequence."""
    return RANK[meld.cards[0]], RANK[meld.cards[-1]]


def base_label(meld: MeldPile) -> str:
    """The label of a meld without its ordinal."""
    r = meld.rank
    if r >= SEQ_RANK:
        low, high = seq_range(meld)
        return seq_label(r, low, high)
    if r == WILD_RANK:
        return "W"
    return RANK_CHARS[r]


def labels(melds: Sequence[MeldPile]) -> list[str]:
    """The label of each meld of a side, ordinals included."""
    out = [RANK_CHARS[m.rank] if m.rank < WILD_RANK else base_label(m) for m in melds]
    if len(set(out)) == len(out):
        return out  # no two melds share a label: no ordinals
    seen: dict[str, int] = {}
    for i, base in enumerate(out):
        n = seen[base] = seen.get(base, 0) + 1
        if n > 1:
            out[i] = f"{base}#{n}"
    return out


def find_label(melds: Sequence[MeldPile], label: str) -> int:
    """Index of the meld with this label, or -1."""
    for i, lab in enumerate(labels(melds)):
        if lab == label:
            return i
    return -1


def first_of_rank(melds: Sequence[MeldPile], rank: int) -> int:
    for i, m in enumerate(melds):
        if m.rank == rank:
            return i
    return -1


def targets(melds: Sequence[MeldPile]) -> Iterator[tuple[int, str, MeldPile]]:
    """(index, label, meld) of each meld, skipping a meld identical to an earlier one."""
    labs = labels(melds)
    for i, m in enumerate(melds):
        if not repeats(melds, labs, i):
            yield i, labs[i], m


def repeats(melds: Sequence[MeldPile], labs: Sequence[str], i: int) -> bool:
    """Whether meld ``i`` is identical to an earlier one (moves name only the first).

    An identical meld shares its base label, so only a meld with an ordinal is compared.
    """
    m = melds[i]
    return "#" in labs[i] and any(o.rank == m.rank and o.cards == m.cards for o in melds[:i])


def parse_label(text: str) -> tuple[int, str]:
    """The rank code and normalised label of a label's text.

    A first group of a rank normalises to the bare rank character (``K#1`` -> ``K``).

    :raises BadMove: ``BAD_MOVE_SYNTAX``.
    """
    raw = text.strip().upper()
    base, sep, ordinal = raw.partition("#")
    n = unsigned(ordinal) if sep else 1
    if n is None or n < 1:  # as written (numerals): '#02' was read as '#2'
        raise BadMove(Reason.BAD_MOVE_SYNTAX, f"bad meld ordinal in {text!r}")
    suffix = f"#{n}" if n > 1 else ""
    if base == "W":
        return WILD_RANK, "W" + suffix
    if len(base) == 1 and base in RANK_CHARS:
        return RANK_CHARS.index(base), base + suffix
    if len(base) == 5 and base[1] == ":" and base[3] == "-" and base[0] in SUIT_CHARS:
        low, high = RANK_CHARS.find(base[2]), RANK_CHARS.find(base[4])
        if SEQ_MIN_RANK <= low < high <= ACE:
            return SEQ_RANK + SUIT_CHARS.index(base[0]), base + suffix
    raise BadMove(Reason.BAD_MOVE_SYNTAX, f"cannot read meld label {text!r}")


def insert_meld(melds: tuple[MeldPile, ...], meld: MeldPile) -> tuple[MeldPile, ...]:
    """Add a new meld after the side's melds of its rank code (a stable order)."""
    i = len(melds)
    while i > 0 and melds[i - 1].rank > meld.rank:
        i -= 1
    return melds[:i] + (meld,) + melds[i:]


def replace_meld(melds: tuple[MeldPile, ...], i: int, meld: MeldPile) -> tuple[MeldPile, ...]:
    return melds[:i] + (meld,) + melds[i + 1:]


# --- classifying cards ----------------------------------------------------------------


def is_sequence(cards: Sequence[Card]) -> bool:
    """Consecutive naturals 4..A of one suit, each rank once (SA-SEQ-1..4); any length."""
    if not cards:
        return False
    suit = SUIT[cards[0]]
    ranks = sorted(RANK[c] for c in cards)
    if any(SUIT[c] != suit or c == JOKER for c in cards) or ranks[0] < SEQ_MIN_RANK:
        return False
    return all(b == a + 1 for a, b in zip(ranks, ranks[1:], strict=False))


def meld_rank(rules: RuleSet, cards: Sequence[Card]) -> int:
    """The rank code a new meld of these cards gets.

    Wild cards only: ``WILD_RANK``; naturals of more than one rank: a sequence
    code (of the first card's suit); otherwise the naturals' rank. Whether the
    meld is valid is decided elsewhere.
    """
    wild = rules.wild
    naturals = [c for c in cards if not wild[c]]
    if not naturals:
        return WILD_RANK if cards else -1
    rank = RANK[naturals[0]]
    if rules.sequences and any(RANK[c] != rank for c in naturals):
        return SEQ_RANK + SUIT[naturals[0]]
    return rank


def canasta_keys(meld: MeldPile) -> tuple[str, str]:
    """Keys of the bonus table for a canasta: most specific first (``natural:7``, ``natural``)."""
    kind = kind_of(meld.rank)
    if kind in (SEQUENCE, WILD):
        return kind, kind
    base = "natural" if meld.wilds == 0 else "mixed"
    return f"{base}:{RANK_CHARS[meld.rank]}", base


# The canasta keys' order in a side's tallies (engine.scoring.canasta_tallies)
CANASTA_KEYS: Final = ("natural", "mixed", SEQUENCE, WILD)


def canasta_kind(meld: MeldPile, names: tuple[tuple[str, str], ...]) -> str:
    """A canasta's kind by the key its bonus is scored by (:func:`canasta_keys`: natural,
    mixed, sequence, wild), named as its game names it (``RuleSet.canasta_names``: a samba,
    an escalera, a bolivia); "" for a meld that is no canasta. A canasta of sevens (SV-CAN-3)
    is a natural or mixed one of rank 7, no kind of its own."""
    if not meld.is_canasta:
        return ""
    key = canasta_keys(meld)[1]
    return dict(names).get(key, key)


# --- shapes of the family's melds ----------------------------------------------------


def _rank_masks(naturals: dict[int, list[Card]]) -> list[int]:
    """Per suit, a bit per rank 4..A held (bit ``rank``)."""
    masks = [0, 0, 0, 0]
    for rank, cs in naturals.items():
        if rank >= SEQ_MIN_RANK:
            for c in cs:
                masks[c & 3] |= 1 << rank
    return masks


def _runs(naturals: dict[int, list[Card]], suits: Sequence[int]) -> list[list[list[Card]]]:
    """Per suit, the maximal runs of at least three cards (only for ``suits``).

    A suit without three ranks in a row is skipped on a bit test, as most are.
    """
    masks = _rank_masks(naturals)
    out: list[list[list[Card]]] = [[], [], [], []]
    for suit in suits:
        mask = masks[suit]
        if mask & (mask >> 1) & (mask >> 2):
            cur: list[Card] = []
            for rank in range(SEQ_MIN_RANK, ACE + 2):
                if mask >> rank & 1:
                    cur.append(CARDS[rank * 4 + suit])
                elif cur:
                    if len(cur) >= 3:
                        out[suit].append(cur)
                    cur = []
    return out


def new_sequences(naturals: dict[int, list[Card]], suit: int | None = None) -> list[Group]:
    """Every new sequence of 3 to 7 cards the hand can lay (SA-SEQ-1/2), or those of
    one suit."""
    out: list[Group] = []
    for runs in _runs(naturals, range(4) if suit is None else (suit,)):
        for run in runs:
            for length in range(3, min(SEQ_MAX, len(run)) + 1):
                for start in range(len(run) - length + 1):
                    out.append(tuple(run[start:start + length]))
    return out


def sequence_additions(naturals: dict[int, list[Card]], meld: MeldPile) -> list[Group]:
    """Cards extending a sequence at either end, up to seven cards (SA-SEQ-5)."""
    suit = meld.rank - SEQ_RANK
    low, high = seq_range(meld)

    def have(rank: int) -> Card | None:
        for c in naturals.get(rank, ()):
            if SUIT[c] == suit:
                return c
        return None

    below: list[Card] = []
    r = low - 1
    while r >= SEQ_MIN_RANK and len(below) + meld.size < SEQ_MAX:
        c = have(r)
        if c is None:
            break
        below.append(c)
        r -= 1
    above: list[Card] = []
    r = high + 1
    while r <= ACE and len(above) + meld.size < SEQ_MAX:
        c = have(r)
        if c is None:
            break
        above.append(c)
        r += 1
    out: list[Group] = []
    for a in range(len(below) + 1):
        for b in range(len(above) + 1):
            if a + b and meld.size + a + b <= SEQ_MAX:
                out.append(tuple(sorted(below[:a] + above[:b])))
    return out


def wild_sets(jokers: int, deuces: Sequence[Card], low: int, high: int) -> list[Group]:
    """Canonical wild-card sets of ``low`` to ``high`` cards (lowest-id deuces first)."""
    out: list[Group] = []
    for j in range(min(jokers, high) + 1):
        for d in range(min(len(deuces), high - j) + 1):
            if j + d >= low:
                out.append(canonical_group(tuple(deuces[:d]) + (JOKER,) * j))
    return out
