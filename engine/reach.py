"""Reachability searches of the Canasta family's meld model: can meld actions from here
still reach the side's minimum (CL-MIN-8), or lay the whole hand to go out (CL-OUT-5)?

Depth-first over the real meld actions, pruned by optimistic bounds and memoised.
Each search has a budget; when one runs out, its verdict is the budget's, not the
rules', and :data:`BUDGET_RAN_OUT` counts it (tests/test_dead_ends.py requires 0).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from engine.cards import ACE, RANK, SUIT, THREE, Card
from engine.hands import HandView
from engine.melds import (
    SEQ_MAX,
    SEQ_MIN_RANK,
    SEQ_RANK,
    WILD_MAX,
    WILD_RANK,
    seq_range,
)
from engine.moves import (
    Merge,
)
from engine.rules import RuleSet
from engine.shapes import NO_LIMIT, cards_of, group_room, is_black_meld, meld_candidates, wild_cap
from engine.state import MeldPile, State, minimum_of
from engine.transitions import (
    apply_stage,
    counts_for_opening,
    staged_points,
)

# (points, cards, rank) of new groups of a hand's naturals, richest first
NaturalGroups = tuple[tuple[int, int, int], ...]


REACH_BUDGET: Final = 400  # positions searched before the answer is taken as "yes"


OUT_BUDGET: Final = 60  # positions searched for a going out before the answer is taken as "no"


# How often a search's budget ran out and the verdict was the budget's, not the rules':
# tests of the legal lists check it stays 0 (tests/test_dead_ends.py).
BUDGET_RAN_OUT: dict[str, int] = {"reach": 0, "out": 0}


def reach_minimum(rules: RuleSet, hand: tuple[Card, ...], melds: tuple[MeldPile, ...],
                  deficit: int, keep: int, bonus: int) -> bool:
    """CL-MIN-8 for several groups per rank, sequences and wild melds: can meld actions
    lay at least ``deficit`` more points while keeping ``keep`` cards (or going out)?

    Quick sufficient tests first (most answers are a plain "yes"), then
    :func:`_reach_search`. ``bonus`` is the first-canasta bonus still due (-1: none):
    an action completing a canasta must then reach the minimum itself.
    """
    hv = HandView(rules, hand)
    room = len(hand) - keep
    top = group_cap(rules, bonus >= 0)
    if groups_reach(natural_groups(rules, hv, top), deficit, room) or one_group(
            rules, hv, {m.rank for m in melds}, deficit, room, top):
        return True
    return _reach_search(rules, hand, melds, deficit, keep, bonus)


@lru_cache(maxsize=4096)
def _reach_search(rules: RuleSet, hand: tuple[Card, ...], melds: tuple[MeldPile, ...],
                  deficit: int, keep: int, bonus: int) -> bool:
    """The search of :func:`reach_minimum`: depth first over the real meld actions,
    biggest first, pruned by an optimistic bound and memoised; exact unless the budget
    runs out (then "yes", so no opening is ever hidden).

    Its answer is "a way exists, or the positions without one are more than the
    budget", whatever the order of the search, so a sufficient test may answer first.
    """
    seen: set[tuple[tuple[Card, ...], tuple[MeldPile, ...]]] = set()
    budget = [REACH_BUDGET]
    values = rules.values

    def kept(left: int, after: tuple[MeldPile, ...]) -> bool:
        if left >= keep:
            return True
        return rules.going_out and enough_canastas(rules, after)

    def rec(hand: tuple[Card, ...], melds: tuple[MeldPile, ...], deficit: int) -> bool:
        if deficit <= 0:
            return True
        if _upper(rules, hand, melds, keep) < deficit or (hand, melds) in seen:
            return False
        seen.add((hand, melds))
        budget[0] -= 1
        if budget[0] < 0:
            BUDGET_RAN_OUT["reach"] += 1
            return True
        scored = []
        for i, m in enumerate(meld_candidates(rules, HandView(rules, hand), melds)):
            if isinstance(m, Merge) or is_black_meld(rules, m) or not counts_for_opening(rules, m):
                continue
            scored.append((-sum(map(values.__getitem__, cards_of(m))), i, m))
        for neg, _, m in sorted(scored, key=lambda x: (x[0], x[1])):
            left, after = apply_stage(rules, -1, hand, melds, m)
            if bonus >= 0 and any(x.is_canasta for x in after):
                if -neg >= deficit and kept(len(left) + bonus, after):
                    return True
                continue
            if kept(len(left), after) and rec(left, after, deficit + neg):
                return True
        return False

    return rec(hand, melds, deficit)


def group_cap(rules: RuleSet, bonus: bool) -> int:
    """The most cards a new group may take: six while the first-canasta bonus is due (no
    canasta then), else the size cap, if any."""
    return 6 if bonus else (rules.group_max or NO_LIMIT)


def natural_groups(rules: RuleSet, hv: HandView, cap: int) -> NaturalGroups:
    """(points, cards, rank) of the new group each rank of three naturals or more makes
    (``cap`` cards at most), richest first."""
    values = rules.values
    return tuple(sorted(((sum(map(values.__getitem__, cs[:cap])), min(len(cs), cap), rank)
                         for rank, cs in hv.naturals.items() if len(cs) >= 3), reverse=True))


def groups_reach(groups: NaturalGroups, deficit: int, room: int,
                  skip: set[int] | frozenset[int] = frozenset()) -> bool:
    """A quick sufficient test: ``groups`` (but those of the ranks in ``skip``), richest
    first while they fit, are worth ``deficit`` in at most ``room`` cards."""
    for points, cards, rank in groups:
        if rank not in skip and cards <= room:
            room -= cards
            deficit -= points
            if deficit <= 0:
                return True
    return False


def one_group(rules: RuleSet, hv: HandView, have: set[int], deficit: int, room: int,
               top: int) -> bool:
    """A quick sufficient test: one new group of a rank, its naturals with the most
    valuable wild cards it may hold (``top`` cards at most), is worth ``deficit`` and
    takes at most ``room`` cards. Each such group is one of the listed new melds."""
    values = rules.values
    best = [0]  # best[w]: the points of the w most valuable wild cards
    for v in sorted((values[c] for c in hv.jokers + hv.deuces), reverse=True):
        best.append(best[-1] + v)
    for rank, cs in hv.naturals.items():
        if len(cs) < 2 or (rank in have and not rules.multi_groups):
            continue
        for k in range(2, min(len(cs), top, room) + 1):
            w = min(wild_cap(rules, k), top - k, room - k, len(best) - 1)
            if k + w >= 3 and sum(map(values.__getitem__, cs[:k])) + best[w] >= deficit:
                return True
    return False


def enough_canastas(rules: RuleSet, melds: tuple[MeldPile, ...]) -> bool:
    if sum(1 for m in melds if m.is_canasta) < rules.canastas_to_go_out:
        return False
    return not rules.out_needs_sequence or any(m.rank >= SEQ_RANK and m.is_canasta for m in melds)


def _upper(rules: RuleSet, hand: tuple[Card, ...], melds: tuple[MeldPile, ...], keep: int) -> int:
    """An optimistic bound on the points a hand can still meld: every card that fits some
    meld on its own counts, the most valuable first, as many as may leave the hand."""
    usable = _usable(rules, hand, melds)
    most = len(hand) if rules.going_out else len(hand) - keep
    return sum(sorted(usable, reverse=True)[:max(most, 0)])


def _usable(rules: RuleSet, hand: tuple[Card, ...], melds: tuple[MeldPile, ...]) -> list[int]:
    """The values of the cards of a hand that could each join some meld."""
    hv = HandView(rules, hand)
    values = rules.values
    wilds = hv.jokers + hv.deuces
    open_groups = {m.rank for m in melds
                   if m.rank < WILD_RANK and m.rank != THREE and group_room(rules, m) > 0}
    in_sequences: dict[int, set[int]] = {}
    for m in melds:
        if m.rank >= SEQ_RANK and m.size < SEQ_MAX:
            low, high = seq_range(m)
            in_sequences.setdefault(m.rank - SEQ_RANK, set()).update(range(low, high + 1))
    usable: list[int] = []
    pairs = False
    for rank, cs in hv.naturals.items():
        n = len(cs)
        pairs = pairs or n >= 2
        if n >= 3 or (n == 2 and wilds) or rank in open_groups:
            usable.extend(values[c] for c in cs)
        elif rules.sequences:
            usable.extend(values[c] for c in cs if _may_run(hv, c, in_sequences))
    if wilds and (open_groups or pairs or (rules.wild_melds and (
            len(wilds) >= 3 or any(m.rank == WILD_RANK and m.size < WILD_MAX for m in melds)))):
        usable.extend(values[c] for c in wilds)
    if rules.black_threes_any_time and rules.black_threes_count and len(hv.black_threes) >= 3:
        usable.extend(values[c] for c in hv.black_threes)
    return usable


def _may_run(hv: HandView, card: Card, in_sequences: dict[int, set[int]]) -> bool:
    """Could this natural be part of a sequence of three (with hand cards or a sequence)?"""
    suit = SUIT[card]
    have = {RANK[c] for cs in hv.naturals.values() for c in cs if SUIT[c] == suit}
    have |= in_sequences.get(suit, set())
    low = high = RANK[card]
    while low - 1 >= SEQ_MIN_RANK and low - 1 in have:
        low -= 1
    while high + 1 <= ACE and high + 1 in have:
        high += 1
    return high - low >= 2


def reach_out(state: State) -> bool:
    """CL-OUT-5 for the family: can meld actions from here lay all but at most one card,
    with the canastas going out needs? A bounded search; "no" when the budget runs out
    (the player may then discard)."""
    seat = state.turn.seat
    team = state.team_of(seat)
    need = 0 if state.opened[team] else minimum_of(state, seat) - staged_points(state)
    return reach_out_from(state.rules, seat, state.hands[seat], state.melds[team], need)


def reach_out_from(rules: RuleSet, seat: int, hand: tuple[Card, ...],
                    melds: tuple[MeldPile, ...], need: int) -> bool:
    """Can meld actions lay all of ``hand`` but at most one card, worth ``need`` points
    or more, with the canastas going out needs (see :func:`reach_out`)?"""
    seen: set[tuple[tuple[Card, ...], tuple[MeldPile, ...]]] = set()
    budget = [OUT_BUDGET]
    values = rules.values

    def done(hand: tuple[Card, ...], melds: tuple[MeldPile, ...], pts: int) -> bool:
        return len(hand) <= 1 and pts >= need and enough_canastas(rules, melds)

    def rec(hand: tuple[Card, ...], melds: tuple[MeldPile, ...], pts: int) -> bool:
        if done(hand, melds, pts):
            return True
        if (hand, melds) in seen:
            return False
        if budget[0] <= 0:
            BUDGET_RAN_OUT["out"] += 1
            return False
        black = len(HandView(rules, hand).black_threes)
        if len(hand) - len(_usable(rules, hand, melds)) - (black if black >= 3 else 0) > 1:
            return False  # more than one card that fits nowhere (a black-three set aside)
        seen.add((hand, melds))
        budget[0] -= 1
        for m in meld_candidates(rules, HandView(rules, hand), melds):
            left, after = apply_stage(rules, seat, hand, melds, m)
            gain = sum(map(values.__getitem__, cards_of(m))) if counts_for_opening(rules, m) else 0
            if (len(left) < 2 or is_black_meld(rules, m)) and not done(left, after, pts + gain):
                continue
            if rec(left, after, pts + gain):
                return True
        return False

    return rec(hand, melds, 0)
