"""Meld shapes a hand allows: new melds, additions and merges, before the turn's checks.

Melds are listed by *shape* (how many naturals, jokers and deuces), with the concrete
copies picked canonically (lowest card ids), so identical cards never make two moves
(CL-MELD-1..6, SA-MELD-5/6, SA-SEQ, BO-WILD-2/3, BO-B3-1/2).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final

from engine.cards import RANK, THREE, Card
from engine.hands import HandView, remove_cards
from engine.melds import (
    SEQ_MAX,
    SEQ_RANK,
    WILD_MAX,
    WILD_RANK,
    labels,
    new_sequences,
    repeats,
    seq_range,
    sequence_additions,
    wild_sets,
)
from engine.moves import (
    AddToMeld,
    CanastaMove,
    Group,
    Meld,
    Merge,
    Move,
    joined_group,
    new_addition,
    new_meld,
)
from engine.rules import RuleSet
from engine.state import MeldPile

NO_LIMIT: Final = 10**6


def wild_cap(rules: RuleSet, naturals: int) -> int:
    """Most wild cards a group with this many naturals may hold (CL-MELD-1, SA-MELD-2)."""
    if rules.wilds_not_exceed_naturals:
        return min(rules.wild_limit, naturals)
    return rules.wild_limit


def closed_to_wilds(rules: RuleSet, meld: MeldPile) -> bool:
    """CL-CAN-3 (option) and SA-CAN-3: no wild card may join this canasta."""
    if not meld.is_canasta:
        return False
    return rules.canasta_closed_to_wilds or (
        meld.wilds == 0 and rules.natural_canasta_closed_to_wilds)


def group_room(rules: RuleSet, meld: MeldPile) -> int:
    """Cards a group may still take (SV-CAN-1: none past seven)."""
    return rules.group_max - meld.size if rules.group_max else NO_LIMIT


def opening_sets(
    rules: RuleSet, hand: tuple[Card, ...], deficit: int, exclude: int = -1
) -> Iterator[tuple[Group, ...]]:
    """Sets of new melds worth at least ``deficit`` in which every meld is needed.

    Used for the extra melds of an initial take (CL-MIN-6) and for batch
    initial melds (CL-MIN-8): a meld that could be dropped while the minimum is
    still reached is not part of the opening (it can be laid afterwards).
    """
    hv = HandView(rules, hand)
    ranks = sorted(r for r, cs in hv.naturals.items() if len(cs) >= 2 and r != exclude)
    values = rules.values
    # one slot per rank (a group); for the family also one per suit (a sequence) and
    # one for a meld of wild cards (SA-SEQ-7, BO-WILD-4)
    # (in the order of their rank codes, the order canonicalize gives the extras)
    slots: list[Callable[[HandView], list[Group]]] = []
    if rules.black_threes_any_time and rules.black_threes_count:
        slots.append(lambda view: black_three_sets(rules, view))
    slots += [_group_slot(rules, r) for r in ranks]
    if rules.wild_melds:
        slots.append(lambda view: wild_sets(len(view.jokers), view.deuces, 3, WILD_MAX))
    if rules.sequences:
        slots += [_suit_slot(s) for s in range(4)]
    # a slot that offers nothing to the whole hand offers nothing to what is left of it
    slots = [slot for slot in slots if slot(hv)]

    def rec(i: int, view: HandView, chosen: tuple[Group, ...],
            pts: tuple[int, ...], total: int) -> Iterator[tuple[Group, ...]]:
        if total >= deficit:
            if all(total - p < deficit for p in pts):
                yield chosen
            return
        if i == len(slots):
            return
        yield from rec(i + 1, view, chosen, pts, total)  # the hand is unchanged: same view
        for g in slots[i](view):
            left = remove_cards(view.hand, g)
            assert left is not None
            p = sum(map(values.__getitem__, g))
            yield from rec(i + 1, HandView(rules, left), chosen + (g,), pts + (p,), total + p)

    yield from rec(0, hv, (), (), 0)


def _group_slot(rules: RuleSet, rank: int) -> Callable[[HandView], list[Group]]:
    return lambda view: new_group_shapes(rules, view, rank)


def _suit_slot(suit: int) -> Callable[[HandView], list[Group]]:
    return lambda view: new_sequences(view.naturals, suit)


def new_group_shapes(rules: RuleSet, hv: HandView, rank: int) -> list[Group]:
    """Canonical new melds of a natural rank that the hand can make (CL-MELD-1/2)."""
    naturals = hv.naturals.get(rank, [])
    top = rules.group_max or NO_LIMIT
    most = min(len(naturals), top)
    if not (hv.jokers or hv.deuces):  # naturals alone: three or more
        return [tuple(naturals[:k]) for k in range(3, most + 1)]
    out: list[Group] = []
    for k in range(2, most + 1):
        head = tuple(naturals[:k])
        picks = hv.wild_picks(min(wild_cap(rules, k), top - k))
        # a pair needs a wild card: the first pick is always the empty one
        for w in picks[1:] if k == 2 else picks:
            out.append(joined_group(head, w))
    return out


def black_three_sets(rules: RuleSet, hv: HandView) -> list[Group]:
    """New black-three melds of 3 to the maximum (CL-MELD-3, BO-B3-1)."""
    mx = rules.black_three_meld_max
    return [tuple(hv.black_threes[:k]) for k in range(3, min(mx, len(hv.black_threes)) + 1)]


def add_shapes(rules: RuleSet, hv: HandView, meld: MeldPile) -> list[Group]:
    """Canonical card sets that can join an existing meld (CL-MELD-6, CL-CAN-3, SA-SEQ-5,
    BO-WILD-3, BO-B3-2, SV-CAN-1)."""
    rank = meld.rank
    if rank < WILD_RANK and rank != THREE:
        return _group_additions(rules, hv, meld)
    if rank == THREE:
        if rules.black_threes_any_time or not hv.black_threes:  # BO-B3-2: nothing added
            return []
        room = rules.black_three_meld_max - meld.size
        return [tuple(hv.black_threes[:k]) for k in range(1, min(room, len(hv.black_threes)) + 1)]
    if rank >= SEQ_RANK:
        return sequence_additions(hv.naturals, meld)
    return wild_sets(len(hv.jokers), hv.deuces, 1, WILD_MAX - meld.size)


def _group_additions(rules: RuleSet, hv: HandView, meld: MeldPile) -> list[Group]:
    """Naturals of the group's rank, then wild cards up to the group's limit."""
    naturals = hv.naturals.get(meld.rank, [])
    if not (hv.jokers or hv.deuces) or closed_to_wilds(rules, meld):
        # most melds, most of the time: nothing, or naturals only
        if not naturals:
            return []
        return [tuple(naturals[:k])
                for k in range(1, min(len(naturals), group_room(rules, meld)) + 1)]
    room = group_room(rules, meld)
    out: list[Group] = []
    for k in range(min(len(naturals), room) + 1):
        cap = wild_cap(rules, meld.naturals + k) - meld.wilds
        picks = hv.wild_picks(max(min(cap, room - k), 0))
        if k:
            head = tuple(naturals[:k])
            for w in picks:
                out.append(joined_group(head, w))
        else:  # wild cards alone; the first pick is always the empty one
            out.extend(picks[1:])
    return out


def merge_moves(rules: RuleSet, melds: tuple[MeldPile, ...],
                labs: list[str] | None = None) -> list[Merge]:
    """SA-MELD-6 / SV-CAN-2: two groups of a rank whose union keeps the wild limit (and the
    size cap); SA-SEQ-6 (option): two sequences of a suit that meet, seven cards at most.

    ``labs`` are the melds' labels when the caller has them.
    """
    if not (rules.merge_groups or rules.join_sequences) or len(
            {m.rank for m in melds}) == len(melds):
        return []  # no merging here, or no two melds of one rank code
    of_rank: dict[int, list[int]] = {}  # only melds of one rank code may merge
    for i, m in enumerate(melds):
        of_rank.setdefault(m.rank, []).append(i)
    out: list[Merge] = []
    seen: set[tuple[Group, Group]] = set()
    for i, a in enumerate(melds):
        for j in of_rank[a.rank]:
            b = melds[j]
            if j <= i or (a.cards, b.cards) in seen:
                continue
            seen.add((a.cards, b.cards))
            if _mergeable(rules, a, b):
                labs = labs or labels(melds)
                out.append(Merge(labs[i], labs[j]))
    return out


def _mergeable(rules: RuleSet, a: MeldPile, b: MeldPile) -> bool:
    if a.rank >= SEQ_RANK:
        if not rules.join_sequences:
            return False
        (alo, ahi), (blo, bhi) = seq_range(a), seq_range(b)
        return (ahi + 1 == blo or bhi + 1 == alo) and a.size + b.size <= SEQ_MAX
    if a.rank in (THREE, WILD_RANK) or not rules.merge_groups:
        return False
    if rules.group_max and a.size + b.size > rules.group_max:
        return False
    if (a.wilds and closed_to_wilds(rules, b)) or (b.wilds and closed_to_wilds(rules, a)):
        return False
    return a.wilds + b.wilds <= wild_cap(rules, a.naturals + b.naturals)


def meld_candidates(rules: RuleSet, hv: HandView, melds: tuple[MeldPile, ...]) -> list[CanastaMove]:
    """Every new meld, addition and merge a hand allows on a side's melds, before the
    checks of the turn (minimum, hand size): CL-MELD-1..6, SA-MELD-5/6, SA-SEQ,
    BO-WILD-2/3, BO-B3-1/2."""
    have = {m.rank for m in melds}
    out: list[CanastaMove] = []
    naturals = hv.naturals
    wilds = bool(hv.jokers or hv.deuces)
    fewest = 2 if wilds else 3  # a pair needs a wild card
    for rank in sorted(naturals):
        if len(naturals[rank]) >= fewest and (rank not in have or rules.multi_groups):
            out.extend([new_meld(g) for g in new_group_shapes(rules, hv, rank)])
    if rules.sequences:
        out.extend([new_meld(g) for g in new_sequences(naturals)])
    if rules.wild_melds and len(hv.jokers) + len(hv.deuces) >= 3:
        out.extend([new_meld(g) for g in wild_sets(len(hv.jokers), hv.deuces, 3, WILD_MAX)])
    labs: list[str] | None = None  # worked out once an addition is found
    for i, m in enumerate(melds):
        if m.rank < WILD_RANK and m.rank != THREE and not wilds and m.rank not in naturals:
            continue  # a group takes naturals of its rank or wild cards: none in hand
        shapes = add_shapes(rules, hv, m)
        if shapes:
            labs = labs or labels(melds)
            if not repeats(melds, labs, i):
                label = labs[i]
                name = "" if len(label) == 1 and m.rank < WILD_RANK else label
                out.extend([new_addition(m.rank, g, name) for g in shapes])
    out.extend(merge_moves(rules, melds, labs))
    if hv.black_threes and (THREE not in have or rules.black_threes_any_time):
        out.extend([new_meld(g) for g in black_three_sets(rules, hv)])
    return out


def cards_of(move: Move) -> tuple[Card, ...]:
    if isinstance(move, Meld):
        groups = move.groups
        return groups[0] if len(groups) == 1 else tuple(c for g in groups for c in g)
    if isinstance(move, Merge):
        return ()
    assert isinstance(move, AddToMeld)
    return move.cards


def card_count(move: Move) -> int:
    """How many hand cards a meld action lays (``len(cards_of(move))`` without a copy)."""
    if isinstance(move, AddToMeld):
        return len(move.cards)
    if isinstance(move, Meld):
        return sum(map(len, move.groups))
    return 0


def is_black_meld(rules: RuleSet, move: Move) -> bool:
    """A black-three meld that obliges going out (CL-MELD-3, SA-B3-1)."""
    return (isinstance(move, Meld) and RANK[move.groups[0][0]] == THREE
            and not rules.black_threes_any_time)
