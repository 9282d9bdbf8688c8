"""Taking the discard pile: when it is blocked or frozen, with which hand cards, and the
extra melds an initial take needs (CL-PILE, CL-MIN-6, SA-PILE, CL-EXH-4).

Each rule is a check returning the :class:`~engine.errors.RuleViolation` it raises or
``None``; :func:`take_moves` lists the takes that pass them, and :func:`take_refusal`
names the first one an unlisted take fails.
"""

from __future__ import annotations

from typing import Final

from engine.canasta_reasons import CanastaViolation
from engine.cards import IS_BLACK_THREE, IS_RED_THREE, RANK, SUIT, THREE
from engine.errors import Reason
from engine.hands import HandView, remove_cards
from engine.melds import (
    SEQ_MAX,
    SEQ_RANK,
    find_label,
    seq_range,
    targets,
)
from engine.moves import (
    Group,
    TakePile,
    canonical_group,
)
from engine.shapes import NO_LIMIT, group_room, opening_sets, wild_cap
from engine.state import MeldPile, State, minimum_of
from engine.transitions import (
    find_meld,
    take_pile,
)
from engine.turn import out_allowed

# Refusals without a detail of the position are built once (the generator asks the checks).
_MUST_TAKE: Final = CanastaViolation(Reason.MUST_TAKE_PILE,
                           "the top card fits your meld: the pile must be taken", "CL-EXH-4")
_PILE_EMPTY: Final = CanastaViolation(Reason.PILE_EMPTY, "the pile is empty", "CL-PILE-12")
_PILE_BLOCKED: Final = CanastaViolation(Reason.PILE_BLOCKED,
                              "a wild card or black three on top blocks the pile", "CL-PILE-2")
_PILE_ONE_CARD: Final = CanastaViolation(Reason.PILE_ONE_CARD,
                               "one card in hand cannot take a one-card pile", "CL-PILE-9")
_FROZEN: Final = CanastaViolation(Reason.PILE_FROZEN,
                        "the pile is frozen for your side: a natural pair is needed", "CL-PILE-6")
_SHOW_NATURAL: Final = CanastaViolation(Reason.PILE_TAKE_INVALID,
                              "no meld of that rank: show a natural card with the top card",
                              "CL-PILE-7")
_CLOSED: Final = CanastaViolation(Reason.NATURAL_CANASTA_CLOSED,
                        "no wild card may join a natural canasta", "CL-CAN-3")
_WILDS: Final = CanastaViolation(Reason.TOO_MANY_WILDS, "too many wild cards", "CL-MELD-1")
_NO_MELD: Final = CanastaViolation(Reason.PILE_TAKE_INVALID, "the take does not meld the top card",
                         "CL-PILE-7")
_CANNOT_END: Final = CanastaViolation(Reason.MUST_KEEP_CARD,
                            "after this take the turn could not end legally", "CL-OUT-3")


def decline_refusal(state: State, takes: list[TakePile]) -> CanastaViolation | None:
    """CL-EXH-4: with the stock empty, a pile whose top fits a meld must be taken
    (``takes``: the legal takes)."""
    if not takes or not state.rules.exhausted_take_compulsory:  # BO-END-3: optional
        return None
    team = state.team_of(state.turn.seat)
    if not state.opened[team] or pile_frozen_for_both(state):
        return None
    if state.rules.pile_pair_only:  # SA-END-3: the top card extends a meld by SA-PILE-3
        return _MUST_TAKE if any(not t.cards for t in takes) else None
    return _MUST_TAKE if find_meld(state.melds[team], RANK[state.pile[-1]]) else None


def pile_frozen_for_both(state: State) -> bool:
    """CL-PILE-4: a wild card or a red three anywhere in the pile (black three by option)."""
    wild = state.rules.wild
    black = state.rules.black_three_freezes
    return any(wild[c] or IS_RED_THREE[c] or (black and IS_BLACK_THREE[c]) for c in state.pile)


def pile_refusal(state: State) -> CanastaViolation | None:
    """CL-PILE-2/9/12: the pile is empty, blocked by a wild card or a three on top, or a
    one-card pile faces a one-card hand."""
    pile = state.pile
    if not pile:
        return _PILE_EMPTY
    top = pile[-1]
    if state.rules.wild[top] or IS_BLACK_THREE[top] or IS_RED_THREE[top]:
        return _PILE_BLOCKED
    if len(pile) == 1 and len(state.hands[state.turn.seat]) == 1:
        return _PILE_ONE_CARD
    return None


def companion_refusal(frozen: bool, meld: MeldPile | None, closed: bool, naturals: int,
                      wilds: int, cap: int) -> CanastaViolation | None:
    """CL-PILE-6/7, CL-MELD-1, CL-CAN-3: hand cards (``naturals`` of the top card's rank
    and ``wilds``) that meld the top card, alone or with the side's ``meld`` of its rank
    (``closed`` to wild cards; ``cap``: the wild cards it may still take)."""
    if frozen and naturals < 2:
        return _FROZEN
    if meld is None and naturals == 0:
        return _SHOW_NATURAL
    if wilds and closed:
        return _CLOSED
    if wilds > cap:
        return _WILDS
    if meld is None and naturals + 1 + wilds < 3:
        return _NO_MELD
    return None


def _companion_facts(state: State) -> tuple[bool, MeldPile | None, bool]:
    """What :func:`companion_refusal` asks of the position: frozen, the side's meld of
    the top card's rank, and whether it is closed to wild cards."""
    team = state.team_of(state.turn.seat)
    existing = find_meld(state.melds[team], RANK[state.pile[-1]])
    frozen = not state.opened[team] or pile_frozen_for_both(state)
    closed = bool(existing and existing.is_natural_canasta
                  and state.rules.natural_canasta_closed_to_wilds)
    return frozen, existing, closed


def _companion_cap(state: State, existing: MeldPile | None, naturals: int) -> int:
    """The wild cards a take showing ``naturals`` may add (CL-MELD-1)."""
    base = existing.naturals if existing else 0
    return wild_cap(state.rules, base + 1 + naturals) - (existing.wilds if existing else 0)


def take_companions(state: State) -> list[Group]:
    """Hand cards that may meld the top card: the sets :func:`companion_refusal` passes."""
    hv = HandView(state.rules, state.hands[state.turn.seat])
    naturals = hv.naturals.get(RANK[state.pile[-1]], [])
    frozen, existing, closed = _companion_facts(state)
    out: list[Group] = []
    for k in range(len(naturals) + 1):
        if frozen and k < 2:  # the check's first rule: no wild pick changes the verdict
            continue
        cap = _companion_cap(state, existing, k)
        # picks past the cap (or any, onto a closed canasta) fail the check: not drawn up
        for w in hv.wild_picks(max(0 if closed else cap, 0)):
            if companion_refusal(frozen, existing, closed, k, len(w), cap) is None:
                out.append(canonical_group(tuple(naturals[:k]) + w))
    return out


def take_refusal(state: State, move: TakePile) -> CanastaViolation | None:
    """The first rule a take of the pile breaks, or ``None``: the pile (CL-PILE-2/9/12),
    the cards shown (CL-PILE-6/7, SA-PILE-1..7), the opening (CL-MIN-6, CL-PILE-8), and a
    turn that can still end (CL-OUT-3)."""
    why = pile_refusal(state)
    if why is not None:
        return why
    rules = state.rules
    wild = rules.wild
    top = state.pile[-1]
    rank = RANK[top]
    if any(not wild[c] and RANK[c] != rank for c in move.cards):
        return CanastaViolation(Reason.MIXED_RANKS, f"the cards must match the top card {top}",
                                "CL-PILE-6")
    if rules.pile_pair_only:
        why = pair_refusal(state, move)
    elif move.target:
        why = CanastaViolation(Reason.PILE_TAKE_INVALID, "the top card joins the meld of its "
                               "rank: name no meld", "CL-PILE-7")
    else:
        naturals = sum(1 for c in move.cards if not wild[c])
        frozen, existing, closed = _companion_facts(state)
        why = companion_refusal(frozen, existing, closed, naturals, len(move.cards) - naturals,
                                _companion_cap(state, existing, naturals))
    if why is not None:
        return why
    why = _opening_refusal(state, move)
    if why is not None:
        return why
    return None if _take_can_end_turn(state, move, _gained(state)) else _CANNOT_END


def _opening_refusal(state: State, move: TakePile) -> CanastaViolation | None:
    """CL-MIN-6: an unopened side's take reaches its minimum with the top card, the cards
    shown and only the extra melds it needs (CL-PILE-8)."""
    seat = state.turn.seat
    if state.opened[state.team_of(seat)]:
        return CanastaViolation(Reason.EXTRA_MELD_NOT_NEEDED, "extra melds are shown only for an "
                                "initial meld", "CL-PILE-8") if move.extras else None
    rules = state.rules
    values = rules.values
    need = minimum_of(state, seat)
    top = state.pile[-1]
    base = values[top] + sum(values[c] for c in move.cards)
    points = base + sum(values[c] for g in move.extras for c in g)
    if points < need:
        return CanastaViolation(
            Reason.OPENING_MINIMUM_NOT_MET,
            f"the initial meld counts {points}, the minimum is {need} "
            "(only the top card of the pile counts)", "CL-MIN-6")
    if not move.extras:
        return None
    rest = remove_cards(state.hands[seat], move.cards)
    if base < need and rest is not None and move.extras in list(
            opening_sets(rules, rest, need - base, exclude=RANK[top])):
        return None
    return CanastaViolation(Reason.EXTRA_MELD_NOT_NEEDED,
                            "show only the extra melds the minimum needs", "CL-PILE-8")


def take_moves(state: State) -> list[TakePile]:
    """Every legal way to take the pile (decision table of CL-PILE)."""
    if pile_refusal(state) is not None:
        return []
    seat = state.turn.seat
    hand = state.hands[seat]
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
    gained = _gained(state)
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


def pair_refusal(state: State, move: TakePile) -> CanastaViolation | None:
    """SA-PILE-1..7, SV-CAN-1: the cards and the meld of a take where a natural pair takes
    the pile (the minimum is checked after)."""
    rules = state.rules
    top = state.pile[-1]
    if any(rules.wild[c] for c in move.cards):
        return CanastaViolation(Reason.PILE_NEEDS_PAIR, "the pile is taken with a natural pair, "
                                "never with a wild card", "SA-PILE-2")
    if len(move.cards) == 1:
        return CanastaViolation(Reason.PILE_NEEDS_PAIR, "one natural card does not take the "
                                "pile: show a natural pair", "SA-PILE-1")
    melds = state.melds[state.team_of(state.turn.seat)]
    meld = None
    if move.target:
        at = find_label(melds, move.target)
        if at < 0 or move.target not in [lab for _, lab, _ in targets(melds)]:
            return CanastaViolation(Reason.NO_SUCH_MELD, f"your side has no meld {move.target}",
                                    "SA-PILE-3")
        meld = melds[at]
        if meld.is_canasta:
            return CanastaViolation(Reason.MELD_CLOSED,
                                    "the pile never goes to a completed canasta", "SA-PILE-5")
    room = (rules.group_max or NO_LIMIT) if meld is None else group_room(rules, meld)
    if move.cards:
        if meld is not None and meld.rank != RANK[top]:
            return CanastaViolation(Reason.PILE_TAKE_INVALID,
                                    "a natural pair joins a group of its rank", "SA-PILE-4")
        return _over_seven() if len(move.cards) + 1 > room else None
    if not state.opened[state.team_of(state.turn.seat)] or pile_frozen_for_both(state):
        return CanastaViolation(Reason.PILE_FROZEN, "the pile is frozen for your side: a natural "
                                "pair is needed", "SA-PILE-6")
    if meld is None:
        return CanastaViolation(Reason.PILE_TAKE_INVALID, "name the meld the top card extends",
                                "SA-PILE-3")
    if meld.rank >= SEQ_RANK:
        low, high = seq_range(meld)
        if SUIT[top] != meld.rank - SEQ_RANK or RANK[top] not in (low - 1, high + 1):
            return CanastaViolation(Reason.PILE_TAKE_INVALID,
                                    "the top card does not extend that sequence", "SA-PILE-3")
        return None
    if meld.rank != RANK[top]:
        return CanastaViolation(Reason.PILE_TAKE_INVALID, "the top card does not fit that meld",
                                "SA-PILE-3")
    if not rules.pile_extend_group:
        return CanastaViolation(Reason.PILE_NEEDS_PAIR, "the pile is taken with a natural pair "
                                "only", "SA-PILE-3")
    return _over_seven() if room < 1 else None


def _over_seven() -> CanastaViolation:
    return CanastaViolation(Reason.MELD_CLOSED, "no meld may have more than seven cards",
                            "SV-CAN-1")


def _take_can_end_turn(state: State, move: TakePile, gained: int) -> bool:
    """Whether the turn can still end after this take (``gained``: the pile's cards that
    come to the hand)."""
    used = len(move.cards) + sum(len(g) for g in move.extras)
    if len(state.hands[state.turn.seat]) - used + gained >= 2:
        return True
    after = take_pile(state, move)
    return len(after.hands[state.turn.seat]) >= 2 or out_allowed(after)


def _gained(state: State) -> int:
    """The pile's cards a take brings to the hand (the red threes are laid)."""
    return sum(1 for c in state.pile[:-1] if not IS_RED_THREE[c])
