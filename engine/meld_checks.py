"""The shape of a meld action: whether its cards make a new meld, join a meld of the
side or merge two, before the turn's checks (engine/turn.py).

Each check returns the :class:`~engine.errors.RuleViolation` of the first rule the
action breaks, or ``None``. The limits come from engine/shapes.py, whose generators
draw up exactly the shapes that pass (tests/test_properties_*.py check both ways);
classic rules cite CL-*, the Samba/Bolivia family SA-*, BO-*, SV-*.
"""

from __future__ import annotations

from engine.canasta_reasons import CanastaReason, CanastaViolation
from engine.cards import IS_BLACK_THREE, IS_RED_THREE, RANK, THREE, Card
from engine.errors import Reason
from engine.melds import (
    SEQ_MAX,
    SEQ_RANK,
    WILD_MAX,
    WILD_RANK,
    find_label,
    first_of_rank,
    is_sequence,
    labels,
    repeats,
)
from engine.moves import AddToMeld, Group, Meld, Merge
from engine.rules import MeldValidation
from engine.shapes import closed_to_wilds, group_room, merge_moves, opening_sets, wild_cap
from engine.state import MeldPile, State, minimum_of
from engine.transitions import find_meld, group_rank


def _no(reason: CanastaReason, message: str, rule: str) -> CanastaViolation:
    return CanastaViolation(reason, message, rule)


def shape_refusal(state: State, move: Meld | AddToMeld | Merge) -> CanastaViolation | None:
    """The first shape rule a meld action breaks, or ``None`` (then the turn decides)."""
    if state.rules.simple_melds:
        return _classic(state, move)
    if isinstance(move, Merge):
        return _merge(state, move)
    if isinstance(move, Meld):
        if len(move.groups) > 1:
            return _no(Reason.ONE_MELD_PER_ACTION, "lay one meld per action", "SA-INIT-2")
        return _new(state, move.groups[0])
    melds = state.melds[state.team_of(state.turn.seat)]
    at = find_label(melds, move.label) if move.label else first_of_rank(melds, move.rank)
    if at < 0 or repeats(melds, labels(melds), at):
        return _no(Reason.NO_SUCH_MELD, f"your side has no meld {move.label or move.rank}",
                   "SA-MELD-7")
    return _add(state, melds[at], move.cards)


# --- the classic meld model: one group per rank ----------------------------------------


def _classic(state: State, move: Meld | AddToMeld | Merge) -> CanastaViolation | None:
    if isinstance(move, Merge):
        return _no(Reason.MERGE_NOT_ALLOWED, "melds are never merged here", "CL-MELD-5")
    rules = state.rules
    team = state.team_of(state.turn.seat)
    melds = state.melds[team]
    if isinstance(move, AddToMeld):
        meld = find_meld(melds, move.rank)
        if meld is None:
            return _no(Reason.NO_SUCH_MELD, "your side has no meld of that rank", "CL-MELD-6")
        return _classic_cards(state, move.cards, move.rank) or _classic_add(state, meld, move)
    batch = (rules.initial_meld_validation is MeldValidation.BATCH and not state.opened[team]
             and not state.turn.staged)
    if len(move.groups) > 1 and not batch:
        return _no(Reason.ONE_MELD_PER_ACTION,
                   "lay one meld per action (several only for a batch opening)", "CL-MIN-8")
    for g in move.groups:
        why = _classic_cards(state, g, None) or _classic_new(state, g, melds)
        if why:
            return why
    if batch and move.groups not in list(opening_sets(
            rules, state.hands[state.turn.seat], minimum_of(state, state.turn.seat))):
        return _no(Reason.OPENING_MINIMUM_NOT_MET,
                   "the initial meld must reach the minimum in one action", "CL-MIN-8")
    return None


def _classic_cards(state: State, group: Group, rank: int | None) -> CanastaViolation | None:
    """CL-MELD-1/4: one natural rank (that of the meld joined, ``rank``), no red three."""
    wild = state.rules.wild
    naturals = [c for c in group if not wild[c]]
    ranks = {RANK[c] for c in naturals}
    if rank is not None:
        ranks.add(rank)
    if len(ranks) > 1:
        return _no(Reason.MIXED_RANKS, "a meld holds one rank only", "CL-MELD-1")
    if any(IS_RED_THREE[c] for c in naturals):
        return _no(Reason.RANK_NOT_MELDABLE, "red threes are never melded", "CL-MELD-4")
    return None


def _classic_new(state: State, g: Group, melds: tuple[MeldPile, ...]) -> CanastaViolation | None:
    """CL-MELD-1/2/3/5: a new group of one rank, black threes alone (their going out is
    the turn's check)."""
    rules = state.rules
    wild = rules.wild
    naturals = sum(1 for c in g if not wild[c])
    rank = group_rank(g, wild)
    if rank == THREE:
        if naturals != len(g):
            return _no(Reason.TOO_MANY_WILDS, "black threes meld without wild cards",
                       "CL-MELD-3")
        if len(g) < 3:
            return _no(Reason.MELD_TOO_SMALL, "a meld needs three cards", "CL-MELD-1")
        return _black_limits(state, g, melds, "CL-MELD-3")
    if rank < 0 or naturals == 0:
        return _no(Reason.MELD_NEEDS_NATURALS, "wild cards cannot be melded alone", "CL-MELD-2")
    if len(g) < 3:
        return _no(Reason.MELD_TOO_SMALL, "a meld needs three cards", "CL-MELD-1")
    if naturals < 2:
        return _no(Reason.MELD_NEEDS_NATURALS, "a meld needs two natural cards", "CL-MELD-1")
    if len(g) - naturals > wild_cap(rules, naturals):
        return _no(Reason.TOO_MANY_WILDS, "too many wild cards in a meld", "CL-MELD-1")
    if rules.group_max and len(g) > rules.group_max:
        return _no(Reason.MELD_CLOSED, "no meld may have more than seven cards", "SV-CAN-1")
    if find_meld(melds, rank) is not None:
        return _no(Reason.MELD_EXISTS, "your side has a meld of that rank: add to it",
                   "CL-MELD-5")
    return None


def _classic_add(state: State, meld: MeldPile, move: AddToMeld) -> CanastaViolation | None:
    """CL-MELD-1/3/6, CL-CAN-3: cards that join the side's meld of their rank."""
    rules = state.rules
    wilds = sum(1 for c in move.cards if rules.wild[c])
    if move.label:
        return _no(Reason.NO_SUCH_MELD, "name the meld by its rank", "CL-MELD-6")
    if meld.rank == THREE:
        if wilds:
            return _no(Reason.TOO_MANY_WILDS, "black threes take no wild cards", "CL-MELD-3")
        return _black_room(state, meld, move.cards, "CL-MELD-3")
    if wilds and closed_to_wilds(rules, meld):
        return _no(Reason.NATURAL_CANASTA_CLOSED, "no wild card may join a natural canasta",
                   "CL-CAN-3")
    if meld.wilds + wilds > wild_cap(rules, meld.naturals + len(move.cards) - wilds):
        return _no(Reason.TOO_MANY_WILDS, "a meld holds at most three wild cards", "CL-MELD-1")
    if len(move.cards) > group_room(rules, meld):
        return _no(Reason.MELD_CLOSED, "no meld may have more than seven cards", "SV-CAN-1")
    return None


# --- black threes ------------------------------------------------------------------------


def _black_limits(state: State, g: Group, melds: tuple[MeldPile, ...],
                  rule: str) -> CanastaViolation | None:
    """CL-MELD-3, BO-B3-1/2: three to four black threes, one meld of them a side. ``rule``
    is the family's rule of black-three melds; their most cards cite the rule set's
    ``black_three_size_rule``."""
    rules = state.rules
    if len(g) > rules.black_three_meld_max:
        return _no(Reason.MELD_CLOSED, f"{rules.black_three_meld_max} black threes at most",
                   rules.black_three_size_rule)
    if find_meld(melds, THREE) is not None and not rules.black_threes_any_time:
        return _no(Reason.MELD_EXISTS, "your side has a meld of black threes: add to it", rule)
    return None


def _black_room(state: State, meld: MeldPile, cards: tuple[Card, ...],
                rule: str) -> CanastaViolation | None:
    """Black threes joining black threes (CL-MELD-3, SA-B3-1); none in Bolivia (BO-B3-2).
    ``rule`` as :func:`_black_limits` takes it."""
    rules = state.rules
    if rules.black_threes_any_time:
        return _no(Reason.MELD_CLOSED, "nothing may be added to black threes", "BO-B3-2")
    if any(not IS_BLACK_THREE[c] for c in cards):
        return _no(Reason.MIXED_RANKS, "only black threes join black threes", rule)
    if meld.size + len(cards) > rules.black_three_meld_max:
        return _no(Reason.MELD_CLOSED, f"{rules.black_three_meld_max} black threes at most",
                   rules.black_three_size_rule)
    return None


# --- the Samba/Bolivia family: sequences, wild melds, several groups, merges ---------------


def _new(state: State, g: Group) -> CanastaViolation | None:
    rules = state.rules
    wild = rules.wild
    naturals = [c for c in g if not wild[c]]
    if not naturals:
        if not rules.wild_melds:
            return _no(Reason.MELD_NEEDS_NATURALS, "wild cards cannot be melded alone",
                       "SA-MELD-3")
        if len(g) < 3:
            return _no(Reason.MELD_TOO_SMALL, "a meld of wild cards needs three", "BO-WILD-2")
        if len(g) > WILD_MAX:
            return _no(Reason.MELD_CLOSED, "seven wild cards make a closed bolivia",
                       "BO-WILD-2")
        return None
    if any(IS_RED_THREE[c] for c in naturals):
        return _no(Reason.RANK_NOT_MELDABLE, "red threes are never melded", "SA-MELD-4")
    melds = state.melds[state.team_of(state.turn.seat)]
    if any(IS_BLACK_THREE[c] for c in naturals):
        return _black(state, g, naturals, melds)
    if len({RANK[c] for c in naturals}) > 1:
        if not rules.sequences:
            return _no(Reason.MIXED_RANKS, "a meld holds one rank only", "SA-MELD-1")
        if len(naturals) < len(g) or not is_sequence(g):
            return _no(Reason.NOT_A_SEQUENCE, "a sequence is consecutive naturals 4..A of one "
                       "suit, without wild cards", "SA-SEQ-1")
        if len(g) > SEQ_MAX:
            return _no(Reason.MELD_CLOSED, "a sequence has seven cards at most", "SA-SEQ-5")
        return None if len(g) >= 3 else _no(Reason.MELD_TOO_SMALL,
                                              "a sequence needs three cards", "SA-SEQ-1")
    if len(g) < 3:
        return _no(Reason.MELD_TOO_SMALL, "a meld needs three cards", "SA-MELD-1")
    if len(naturals) < 2:
        return _no(Reason.MELD_NEEDS_NATURALS, "a group needs two natural cards", "SA-MELD-1")
    if len(g) - len(naturals) > wild_cap(rules, len(naturals)):
        return _no(Reason.TOO_MANY_WILDS,
                   f"a group holds at most {rules.wild_limit} wild cards", "SA-MELD-2")
    if rules.group_max and len(g) > rules.group_max:
        return _no(Reason.MELD_CLOSED, "no meld may have more than seven cards", "SV-CAN-1")
    if not rules.multi_groups and first_of_rank(melds, RANK[naturals[0]]) >= 0:
        return _no(Reason.MELD_EXISTS, "your side has a meld of that rank: add to it",
                   "CL-MELD-5")
    return None


def _black(state: State, g: Group, naturals: list[Card],
           melds: tuple[MeldPile, ...]) -> CanastaViolation | None:
    rules = state.rules
    if any(RANK[c] != THREE for c in naturals):
        if rules.sequences:  # a run through a three: sequences start at the four (SA-SEQ-2)
            return _no(Reason.NOT_A_SEQUENCE, "a sequence runs from 4 to A: no threes",
                       "SA-SEQ-2")
        return _no(Reason.MIXED_RANKS, "black threes meld alone", "SA-B3-1")
    rule = "BO-B3-1" if rules.black_threes_any_time else "SA-B3-1"
    if len(naturals) < len(g):
        return _no(Reason.TOO_MANY_WILDS, "black threes meld alone, without wild cards", rule)
    if len(g) < 3:
        return _no(Reason.MELD_TOO_SMALL, "three or four black threes", rule)
    return _black_limits(state, g, melds, rule)


def _add(state: State, meld: MeldPile, cards: tuple[Card, ...]) -> CanastaViolation | None:
    rules = state.rules
    wild = rules.wild
    wilds = sum(1 for c in cards if wild[c])
    if meld.rank >= SEQ_RANK:
        if meld.size >= SEQ_MAX:
            return _no(Reason.MELD_CLOSED, "a sequence of seven is closed", "SA-SEQ-5")
        if wilds or not is_sequence(meld.cards + cards):
            return _no(Reason.NOT_A_SEQUENCE, "the cards must extend the sequence at its ends",
                       "SA-SEQ-5")
        if meld.size + len(cards) > SEQ_MAX:
            return _no(Reason.MELD_CLOSED, "a sequence has seven cards at most", "SA-SEQ-5")
        return None
    if meld.rank == WILD_RANK:
        if wilds < len(cards):
            return _no(Reason.MIXED_RANKS, "only wild cards join a meld of wild cards",
                       "BO-WILD-3")
        if meld.size + len(cards) > WILD_MAX:
            return _no(Reason.MELD_CLOSED, "a bolivia of seven wild cards is closed",
                       "BO-WILD-2")
        return None
    if meld.rank == THREE:
        return _black_room(state, meld, cards, "SA-B3-1")
    if any(not wild[c] and RANK[c] != meld.rank for c in cards):
        return _no(Reason.MIXED_RANKS, "a group holds one rank only", "SA-MELD-1")
    if len(cards) > group_room(rules, meld):  # the seven-card limit closes any meld first
        return _no(Reason.MELD_CLOSED, "no meld may have more than seven cards", "SV-CAN-1")
    if wilds and closed_to_wilds(rules, meld):
        return _no(Reason.NATURAL_CANASTA_CLOSED, "no wild card joins a completed canasta",
                   "SA-CAN-3")
    if meld.wilds + wilds > wild_cap(rules, meld.naturals + len(cards) - wilds):
        return _no(Reason.TOO_MANY_WILDS,
                   f"a group holds at most {rules.wild_limit} wild cards", "SA-MELD-2")
    return None


def _merge(state: State, move: Merge) -> CanastaViolation | None:
    """SA-MELD-6, SA-SEQ-6, SV-CAN-2: the merges :func:`engine.shapes.merge_moves` lists;
    the reason names the first of its conditions the two melds miss."""
    rules = state.rules
    melds = state.melds[state.team_of(state.turn.seat)]
    i, j = find_label(melds, move.first), find_label(melds, move.second)
    if i < 0 or j < 0 or i == j:
        return _no(Reason.NO_SUCH_MELD, "name two different melds of your side", "SA-MELD-6")
    if move in merge_moves(rules, melds):
        return None
    a, b = melds[i], melds[j]
    if a.rank >= SEQ_RANK and b.rank == a.rank and not rules.join_sequences:
        return _no(Reason.MERGE_NOT_ALLOWED, "two sequences may not be joined", "SA-SEQ-6")
    if a.rank != b.rank or a.rank in (THREE, WILD_RANK) or (
            a.rank < WILD_RANK and not rules.merge_groups):
        return _no(Reason.MERGE_NOT_ALLOWED, "only two groups of one rank may merge",
                   "SA-MELD-6")
    if i > j:
        return _no(Reason.MERGE_NOT_ALLOWED, "name the earlier meld first", "SA-MELD-6")
    if rules.group_max and a.size + b.size > rules.group_max:
        return _no(Reason.MERGE_NOT_ALLOWED,
                   f"a merged meld holds at most {rules.group_max} cards", "SV-CAN-2")
    return _no(Reason.MERGE_NOT_ALLOWED, "the merged meld would break the wild limit",
               "SA-MELD-6")
