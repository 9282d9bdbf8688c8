"""Why a Samba/Bolivia meld or take is refused: the reasons for sequences, wild melds,
labelled melds, merges and the pair-only pile (SA-*, BO-*, SV-*).

:func:`engine.play.diagnose` asks here first for variants whose melds go beyond
one group per rank; classic refusals stay in :mod:`engine.play`.
"""

from __future__ import annotations

from engine import transitions as tr
from engine.cards import IS_BLACK_THREE, IS_RED_THREE, RANK, SUIT, THREE, Card
from engine.errors import Reason, RuleViolation
from engine.melds import (
    SEQ_MAX,
    SEQ_RANK,
    WILD_MAX,
    WILD_RANK,
    find_label,
    first_of_rank,
    is_sequence,
    seq_range,
)
from engine.moves import AddToMeld, Meld, Merge, TakePile
from engine.shapes import closed_to_wilds, group_room, merge_moves, wild_cap
from engine.state import MeldPile, State, minimum_of


def _no(reason: Reason, message: str, rule: str) -> RuleViolation:
    return RuleViolation(reason, message, rule)


def _target(state: State, move: AddToMeld) -> MeldPile | None:
    melds = state.melds[state.team_of(state.turn.seat)]
    at = find_label(melds, move.label) if move.label else first_of_rank(melds, move.rank)
    return melds[at] if at >= 0 else None


def why_meld(state: State, move: Meld | AddToMeld | Merge) -> RuleViolation | None:
    """The rule a family meld action breaks, or ``None`` (then the context decides)."""
    if isinstance(move, Merge):
        return _why_merge(state, move)
    if isinstance(move, Meld):
        if len(move.groups) > 1:
            return _no(Reason.ONE_MELD_PER_ACTION, "lay one meld per action", "SA-INIT-2")
        return _why_new(state, move.groups[0])
    meld = _target(state, move)
    if meld is None:
        return _no(Reason.NO_SUCH_MELD, f"your side has no meld {move.label or move.rank}",
                   "SA-MELD-7")
    return _why_add(state, meld, move.cards)


def _why_new(state: State, g: tuple[Card, ...]) -> RuleViolation | None:
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
    if any(IS_BLACK_THREE[c] for c in naturals):
        return _why_black(state, g, naturals)
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
    melds = state.melds[state.team_of(state.turn.seat)]
    if not rules.multi_groups and first_of_rank(melds, RANK[naturals[0]]) >= 0:
        return _no(Reason.MELD_EXISTS, "your side has a meld of that rank: add to it",
                   "CL-MELD-5")
    return None


def _why_black(state: State, g: tuple[Card, ...], naturals: list[Card]) -> RuleViolation | None:
    rules = state.rules
    if any(RANK[c] != THREE for c in naturals):
        if rules.sequences:  # a run through a three: sequences start at the four (SA-SEQ-2)
            return _no(Reason.NOT_A_SEQUENCE, "a sequence runs from 4 to A: no threes",
                       "SA-SEQ-2")
        return _no(Reason.MIXED_RANKS, "black threes meld alone", "SA-B3-1")
    if len(naturals) < len(g):
        return _no(Reason.TOO_MANY_WILDS, "black threes meld alone, without wild cards",
                   "BO-B3-1" if rules.black_threes_any_time else "SA-B3-1")
    if len(g) < 3:
        return _no(Reason.MELD_TOO_SMALL, "three or four black threes", "BO-B3-1")
    if len(g) > int(rules.opt("black_three_meld_max")):
        return _no(Reason.MELD_CLOSED, "four black threes at most", "BO-B3-2")
    if not rules.black_threes_any_time:
        return _no(Reason.BLACK_THREES_ONLY_GOING_OUT,
                   "black threes are melded only when going out", "SA-B3-1")
    return None


def _why_add(state: State, meld: MeldPile, cards: tuple[Card, ...]) -> RuleViolation | None:
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
        if rules.black_threes_any_time:
            return _no(Reason.MELD_CLOSED, "nothing may be added to black threes", "BO-B3-2")
        if wilds or any(not IS_BLACK_THREE[c] for c in cards):
            return _no(Reason.MIXED_RANKS, "only black threes join black threes", "SA-B3-1")
        return None
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


def _why_merge(state: State, move: Merge) -> RuleViolation | None:
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
    return _no(Reason.MERGE_NOT_ALLOWED, "the merged meld would break the wild limit or "
               "the size limit", "SA-MELD-6")


def why_take(state: State, move: TakePile, frozen: bool) -> RuleViolation | None:
    """SA-PILE-1..7 for a take the pile rules refuse (the minimum is checked later)."""
    wild = state.rules.wild
    top = state.pile[-1]
    if any(wild[c] for c in move.cards):
        return _no(Reason.PILE_NEEDS_PAIR, "the pile is taken with a natural pair, never "
                   "with a wild card", "SA-PILE-2")
    if len(move.cards) == 1:
        return _no(Reason.PILE_NEEDS_PAIR, "one natural card does not take the pile: show a "
                   "natural pair", "SA-PILE-1")
    melds = state.melds[state.team_of(state.turn.seat)]
    meld = None
    if move.target:
        at = find_label(melds, move.target)
        if at < 0:
            return _no(Reason.NO_SUCH_MELD, f"your side has no meld {move.target}", "SA-PILE-3")
        meld = melds[at]
        if meld.is_canasta:
            return _no(Reason.MELD_CLOSED, "the pile never goes to a completed canasta",
                       "SA-PILE-5")
    if move.cards:
        if meld is not None and meld.rank != RANK[top]:
            return _no(Reason.PILE_TAKE_INVALID, "a natural pair joins a group of its rank",
                       "SA-PILE-4")
        return None
    if frozen:
        return _no(Reason.PILE_FROZEN, "the pile is frozen for your side: a natural pair is "
                   "needed", "SA-PILE-6")
    if meld is None:
        return _no(Reason.PILE_TAKE_INVALID, "name the meld the top card extends",
                   "SA-PILE-3")
    if meld.rank >= SEQ_RANK:
        low, high = seq_range(meld)
        if SUIT[top] != meld.rank - SEQ_RANK or RANK[top] not in (low - 1, high + 1):
            return _no(Reason.PILE_TAKE_INVALID, "the top card does not extend that sequence",
                       "SA-PILE-3")
        return None
    if meld.rank != RANK[top]:
        return _no(Reason.PILE_TAKE_INVALID, "the top card does not fit that meld", "SA-PILE-3")
    if not state.rules.pile_extend_group:
        return _no(Reason.PILE_NEEDS_PAIR, "the pile is taken with a natural pair only",
                   "SA-PILE-3")
    return None


def why_context(state: State, move: Meld | AddToMeld | Merge) -> RuleViolation | None:
    """BO-C1 (hoyle): going out needs an escalera; SV-BONUS-2: an unopened side completes
    the deal's first canasta only with its minimum met (the bonus draw makes the melds
    final)."""
    team = state.team_of(state.turn.seat)
    after = tr.stage(state, move)
    if state.rules.out_needs_sequence and len(after.hands[state.turn.seat]) < 2 and not any(
            m.rank >= SEQ_RANK and m.is_canasta for m in after.melds[team]):
        return _no(Reason.GO_OUT_NEEDS_CANASTAS, "going out needs two canastas, one of them "
                   "an escalera: keep a card", "BO-C1")
    if state.opened[team] or not tr.bonus_due(state, team):
        return None
    if any(m.is_canasta for m in after.melds[team]):
        return _no(Reason.OPENING_MINIMUM_NOT_MET,
                   f"reach the minimum of {minimum_of(state, state.turn.seat)} before "
                   "completing the first canasta (its bonus cards end the undo)", "SV-BONUS-2")
    return None
