"""Taking the discard pile: when it is blocked or frozen, with which hand cards, and the
extra melds an initial take needs (CL-PILE, CL-MIN-6, SA-PILE, CL-EXH-4)."""

from __future__ import annotations

from engine.cards import IS_BLACK_THREE, IS_RED_THREE, RANK, SUIT, THREE
from engine.hands import HandView, remove_cards
from engine.melds import (
    SEQ_MAX,
    SEQ_RANK,
    seq_range,
    targets,
)
from engine.moves import (
    Group,
    TakePile,
    canonical_group,
)
from engine.shapes import group_room, opening_sets, wild_cap
from engine.state import State, minimum_of
from engine.transitions import (
    find_meld,
    take_pile,
)
from engine.turn import out_allowed


def compulsory_take(state: State, takes: list[TakePile]) -> bool:
    """CL-EXH-4: with the stock empty, a pile whose top fits a meld must be taken."""
    if not takes or not state.rules.exhausted_take_compulsory:  # BO-END-3: optional
        return False
    team = state.team_of(state.turn.seat)
    if not state.opened[team] or pile_frozen_for_both(state):
        return False
    if state.rules.pile_pair_only:  # SA-END-3: the top card extends a meld by SA-PILE-3
        return any(not t.cards for t in takes)
    return find_meld(state.melds[team], RANK[state.pile[-1]]) is not None


def pile_frozen_for_both(state: State) -> bool:
    """CL-PILE-4: a wild card or a red three anywhere in the pile (black three by option)."""
    wild = state.rules.wild
    black = bool(state.rules.opt("black_three_freezes"))
    return any(wild[c] or IS_RED_THREE[c] or (black and IS_BLACK_THREE[c]) for c in state.pile)


def pile_blocked(state: State) -> bool:
    """CL-PILE-2/12: empty, or a wild card or black three on top."""
    if not state.pile:
        return True
    top = state.pile[-1]
    return state.rules.wild[top] or IS_BLACK_THREE[top] or IS_RED_THREE[top]


def take_companions(state: State) -> list[Group]:
    """Hand cards that may meld the top card, by the freeze rules (CL-PILE-6/7)."""
    rules = state.rules
    seat = state.turn.seat
    team = state.team_of(seat)
    top = state.pile[-1]
    rank = RANK[top]
    hv = HandView(rules, state.hands[seat])
    naturals = hv.naturals.get(rank, [])
    existing = find_meld(state.melds[team], rank)
    frozen = not state.opened[team] or pile_frozen_for_both(state)
    base_nat = existing.naturals if existing else 0
    base_wild = existing.wilds if existing else 0
    closed = bool(existing and existing.is_natural_canasta
                  and rules.opt("natural_canasta_closed_to_wilds"))
    out: list[Group] = []
    for k in range(len(naturals) + 1):
        if frozen and k < 2:
            continue
        if existing is None and k == 0:
            continue
        cap = 0 if closed else wild_cap(rules, base_nat + 1 + k) - base_wild
        for w in hv.wild_picks(max(cap, 0)):
            if existing is None and k + 1 + len(w) < 3:
                continue
            out.append(canonical_group(tuple(naturals[:k]) + w))
    return out


def take_moves(state: State) -> list[TakePile]:
    """Every legal way to take the pile (decision table of CL-PILE)."""
    if pile_blocked(state):
        return []
    seat = state.turn.seat
    hand = state.hands[seat]
    if len(hand) == 1 and len(state.pile) == 1:  # CL-PILE-9
        return []
    rules = state.rules
    team = state.team_of(seat)
    top = state.pile[-1]
    values = rules.values
    need = 0 if state.opened[team] else minimum_of(state, state.turn.seat)
    moves: list[TakePile] = []
    bases = (pair_takes(state) if rules.pile_pair_only
             else [TakePile(comp) for comp in take_companions(state)])
    if not bases:
        return moves
    gained = sum(1 for c in state.pile[:-1] if not IS_RED_THREE[c])  # cards the take brings
    for base in bases:
        comp = base.cards
        points = values[top] + sum(map(values.__getitem__, comp))
        if points >= need:
            candidates = [base]
        else:
            rest = remove_cards(hand, comp)
            assert rest is not None
            candidates = [TakePile(comp, ex, base.target) for ex in
                          opening_sets(rules, rest, need - points, exclude=RANK[top])]
        for move in candidates:
            if _take_can_end_turn(state, move, gained):
                moves.append(move)
    return moves


def pair_takes(state: State) -> list[TakePile]:
    """SA-PILE-1..7: a natural pair (or more naturals, no wild card) melds the top card as
    a new group or onto an incomplete group of its rank; an unfrozen pile may also be
    taken by adding the top card alone to an incomplete group (``pile_extend_group``) or
    to an end of an open sequence. Never to a completed canasta (SA-PILE-5)."""
    rules = state.rules
    seat = state.turn.seat
    team = state.team_of(seat)
    top = state.pile[-1]
    rank = RANK[top]
    melds = state.melds[team]
    wild = rules.wild
    # the hand's naturals of the top card's rank (threes are never naturals)
    naturals = [] if rank == THREE else [c for c in state.hands[seat]
                                         if RANK[c] == rank and not wild[c]]
    seq = SEQ_RANK + SUIT[top]
    # the labels are worked out only when a meld of the rank or a sequence of the suit is there
    found = list(targets(melds)) if any(m.rank in (rank, seq) for m in melds) else []
    groups = [(lab, m) for _, lab, m in found if m.rank == rank and not m.is_canasta]
    out: list[TakePile] = []
    for k in range(2, len(naturals) + 1):
        comp = tuple(naturals[:k])
        if not rules.group_max or k + 1 <= rules.group_max:
            out.append(TakePile(comp))
        out.extend(TakePile(comp, (), lab) for lab, m in groups
                   if k + 1 <= group_room(rules, m))
    if state.opened[team] and not pile_frozen_for_both(state):
        if rules.pile_extend_group:
            out.extend(TakePile((), (), lab) for lab, m in groups if group_room(rules, m) >= 1)
        for _, lab, m in found:
            if m.rank == seq and not m.is_canasta:
                low, high = seq_range(m)
                if rank in (low - 1, high + 1) and m.size < SEQ_MAX:
                    out.append(TakePile((), (), lab))
    return out


def _take_can_end_turn(state: State, move: TakePile, gained: int) -> bool:
    """Whether the turn can still end after this take (``gained``: the pile's cards that
    come to the hand)."""
    used = len(move.cards) + sum(len(g) for g in move.extras)
    if len(state.hands[state.turn.seat]) - used + gained >= 2:
        return True
    after = take_pile(state, move)
    return len(after.hands[state.turn.seat]) >= 2 or out_allowed(after)
