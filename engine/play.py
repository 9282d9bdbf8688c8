"""Applying moves: ``apply(state, move) -> state``, checked, pure and atomic.

A move is first canonicalised (the client's choice of identical-rank copies is
replaced by the canonical one), then looked up in the legal list. A move that
is not listed is refused with the most specific reason :func:`diagnose` finds;
the input state is never touched.
"""

from __future__ import annotations

from typing import overload

from engine import family
from engine import transitions as tr
from engine.cards import IS_BLACK_THREE, JOKER, RANK, THREE, Card
from engine.errors import BadInput, Reason, RuleViolation
from engine.games import game_of
from engine.hands import remove_cards
from engine.legal import canasta_legal_moves
from engine.mayi.state import AnyState, MayIState
from engine.melds import SEQ_RANK, WILD_RANK, first_of_rank, labels, meld_rank
from engine.moves import (
    AddToMeld,
    Answer,
    Ask,
    Decline,
    Discard,
    Draw,
    EndHand,
    GoOut,
    Group,
    Meld,
    Merge,
    Move,
    TakePile,
    Undo,
    canonical_group,
)
from engine.shapes import wild_cap
from engine.state import Phase, State, evolve, minimum_of, partner_of
from engine.takes import pile_blocked, pile_frozen_for_both, take_companions
from engine.turn import canastas, minimum_met, out_allowed


@overload
def apply(state: State, move: Move, seat: int | None = None) -> State: ...
@overload
def apply(state: MayIState, move: Move, seat: int | None = None) -> MayIState: ...


def apply(state: AnyState, move: Move, seat: int | None = None) -> AnyState:
    """The state after ``move`` by the awaited seat.

    :param seat: if given, the seat that claims to move; another seat than the
        awaited one is refused with ``NOT_YOUR_TURN``.
    :raises RuleViolation: the move is not legal here (the reason says why).
    :raises BadInput: the seat number does not exist.
    """
    after: AnyState = game_of(state).apply(state, move, seat)
    return after


def canasta_apply(state: State, move: Move, seat: int | None = None) -> State:
    """:func:`apply` of a Canasta-family state."""
    if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
        reason = Reason.GAME_OVER if state.phase is Phase.GAME_OVER else Reason.HAND_OVER
        raise RuleViolation(reason, "the hand is over: deal the next one", "CL-TURN-4")
    if seat is not None:
        if not 0 <= seat < state.rules.players:
            raise BadInput(Reason.BAD_SEAT, f"there is no seat {seat}")
        if seat != state.awaited:
            raise RuleViolation(Reason.NOT_YOUR_TURN,
                                f"seat {state.awaited} is to move, not seat {seat}", "CL-TURN-2")
    chosen = move
    move = canasta_canonicalize(state, move)
    legal = canasta_legal_moves(state)
    # a move canonicalize keeps as it is may be the listed object itself (a bot's pick):
    # found by identity, without comparing it with every move listed before it
    if not ((move is chosen and any(m is move for m in legal)) or move in legal):
        raise diagnose(state, move)
    return _do(state, move)


def _do(state: State, move: Move) -> State:
    if isinstance(move, Draw):
        nxt = tr.draw_stock(state)
    elif isinstance(move, TakePile):
        nxt = tr.take_pile(state, move)
    elif isinstance(move, (Meld, AddToMeld, Merge)):
        nxt = tr.stage(state, move)
    elif isinstance(move, Discard):
        nxt = tr.discard(state, move.card)
    elif isinstance(move, GoOut):
        nxt = tr.go_out(state, move.card)
    elif isinstance(move, Ask):
        nxt = tr.ask(state)
    elif isinstance(move, Answer):
        nxt = tr.answer(state, move.yes)
    elif isinstance(move, Undo):
        nxt = tr.undo(state)
    else:  # Decline, EndHand: the hand ends by exhaustion (CL-EXH-2, CL-EXH-6)
        nxt = tr.finish_hand(state, -1, False)
    return evolve(nxt, ply=state.ply + 1)


# --- canonical cards -------------------------------------------------------------


def _pick(rest: list[Card], group: Group, wild: tuple[bool, ...]) -> Group:
    """The canonical copies for a group's shape, taken out of ``rest``."""
    picked: list[Card] = []
    for c in sorted(group):  # the first fitting card of rest, or c itself
        if c == JOKER:
            chosen = JOKER
        elif wild[c]:
            chosen = next((x for x in rest if wild[x] and x != JOKER), c)
        elif IS_BLACK_THREE[c]:
            chosen = next((x for x in rest if IS_BLACK_THREE[x]), c)
        else:
            rank = RANK[c]
            chosen = next((x for x in rest if RANK[x] == rank and not wild[x]), c)
        if chosen in rest:
            rest.remove(chosen)
        picked.append(chosen)
    return canonical_group(picked)


def canonicalize(state: AnyState, move: Move) -> Move:
    """Replace a client's copies of identical-rank cards by the canonical ones.

    :raises RuleViolation: ``CARDS_NOT_IN_HAND`` if the hand lacks some card.
    """
    canonical: Move = game_of(state).canonicalize(state, move)
    return canonical


def canasta_canonicalize(state: State, move: Move) -> Move:
    """:func:`canonicalize` of a Canasta-family state."""
    if not isinstance(move, (Meld, AddToMeld, TakePile)) or state.awaited < 0:
        return move
    hand = state.hands[state.awaited]
    rules = state.rules
    wild = rules.wild
    if isinstance(move, TakePile):
        groups = (move.cards,) + tuple(sorted(move.extras, key=lambda g: meld_rank(rules, g)))
    elif isinstance(move, Meld):
        groups = move.groups if len(move.groups) == 1 else tuple(
            sorted(move.groups, key=lambda g: meld_rank(rules, g)))
    else:
        groups = (move.cards,)
    if remove_cards(hand, (c for g in groups for c in g)) is None:
        raise RuleViolation(Reason.CARDS_NOT_IN_HAND,
                            f"{move} uses cards that are not in the hand", "CL-TURN-3")
    rest = list(hand)
    if isinstance(move, AddToMeld) and not move.label and not 0 <= move.rank < WILD_RANK:
        move = _labelled(state, move)
    if isinstance(move, AddToMeld) and move.rank >= SEQ_RANK:  # a sequence keeps its suit
        return AddToMeld(move.rank, tuple(sorted(move.cards)), move.label)
    # Naturals of several ranks (a sequence, SA-SEQ) keep their suits: they are set
    # aside first, so that no other group's canonical copies take them.
    exact = [len({RANK[c] for c in g if not wild[c]}) > 1 for g in groups]
    for g, keep in zip(groups, exact, strict=True):
        for c in g if keep else ():
            rest.remove(c)
    picked = tuple(tuple(sorted(g)) if keep else _pick(rest, g, wild)
                   for g, keep in zip(groups, exact, strict=True))
    if isinstance(move, TakePile):
        return TakePile(picked[0], picked[1:], move.target)
    if isinstance(move, Meld):
        return Meld(picked)
    return AddToMeld(move.rank, picked[0], move.label)


def _labelled(state: State, move: AddToMeld) -> AddToMeld:
    """An addition named by a rank code alone (13 wild, 14+ sequence) gets the label of
    the side's first meld with that code (the text form always names it by label)."""
    melds = state.melds[state.team_of(state.awaited)]
    at = first_of_rank(melds, move.rank)
    if at < 0:
        return move
    return AddToMeld(move.rank, move.cards, labels(melds)[at])


# --- why a move is refused ----------------------------------------------------------

_PHASE_OF: dict[type, tuple[Phase, ...]] = {
    Draw: (Phase.DRAW,),
    TakePile: (Phase.DRAW, Phase.DRAW_EXHAUSTED),
    Decline: (Phase.DRAW_EXHAUSTED,),
    Meld: (Phase.MELD,), AddToMeld: (Phase.MELD,), Merge: (Phase.MELD,), Discard: (Phase.MELD,),
    GoOut: (Phase.MELD,), Undo: (Phase.MELD,), EndHand: (Phase.MELD,),
    Ask: (Phase.DRAW, Phase.DRAW_EXHAUSTED, Phase.MELD),
    Answer: (Phase.PERMISSION,),
}


def diagnose(state: State, move: Move) -> RuleViolation:
    """The most specific reason a canonical, unlisted move is illegal."""
    if state.phase not in _PHASE_OF.get(type(move), ()):  # another game's move: wrong phase
        if state.phase is Phase.DRAW_EXHAUSTED and isinstance(move, Draw):
            return RuleViolation(Reason.STOCK_EMPTY, "the stock is empty", "CL-EXH-4")
        return RuleViolation(Reason.WRONG_PHASE,
                             f"{move} is not a move of the {state.phase.value} phase", "CL-TURN-1")
    found = _diagnose_kind(state, move)
    return found or RuleViolation(Reason.NOT_LISTED, f"{move} is not legal here", "CL-TURN-3")


def _diagnose_kind(state: State, move: Move) -> RuleViolation | None:
    if isinstance(move, TakePile):
        return _why_take(state, move)
    if isinstance(move, (Meld, AddToMeld, Merge)) and not state.rules.simple_melds:
        return family.why_meld(state, move) or _why_meld_context(state, move)
    if isinstance(move, (Meld, AddToMeld)):
        return _why_meld(state, move)
    if isinstance(move, Merge):
        return RuleViolation(Reason.MERGE_NOT_ALLOWED, "melds are never merged here",
                             "CL-MELD-5")
    if isinstance(move, (Discard, GoOut, EndHand)):
        return _why_end(state, move)
    if isinstance(move, Ask):
        if partner_of(state, state.turn.seat) < 0:
            return RuleViolation(Reason.ASK_NOT_ALLOWED,
                                 "there is no partner to ask: play without permission",
                                 "CL-P2-5")
        return RuleViolation(Reason.ASK_NOT_ALLOWED,
                             "you may ask only once, before melding or taking the pile",
                             "CL-OUT-4")
    if isinstance(move, Undo):
        return RuleViolation(Reason.NOTHING_TO_UNDO, "no meld of this turn to take back",
                             "CL-MIN-8")
    if isinstance(move, Decline):
        return RuleViolation(Reason.MUST_TAKE_PILE,
                             "the top card fits your meld: the pile must be taken", "CL-EXH-4")
    return None


def _why_take(state: State, move: TakePile) -> RuleViolation | None:
    if not state.pile:
        return RuleViolation(Reason.PILE_EMPTY, "the pile is empty", "CL-PILE-12")
    if pile_blocked(state):
        return RuleViolation(Reason.PILE_BLOCKED,
                             "a wild card or black three on top blocks the pile", "CL-PILE-2")
    seat = state.turn.seat
    if len(state.hands[seat]) == 1 and len(state.pile) == 1:
        return RuleViolation(Reason.PILE_ONE_CARD,
                             "one card in hand cannot take a one-card pile", "CL-PILE-9")
    team = state.team_of(seat)
    wild = state.rules.wild
    top = state.pile[-1]
    rank = RANK[top]
    naturals = sum(1 for c in move.cards if not wild[c] and RANK[c] == rank)
    frozen = not state.opened[team] or pile_frozen_for_both(state)
    if any(not wild[c] and RANK[c] != rank for c in move.cards):
        return RuleViolation(Reason.MIXED_RANKS, f"the cards must match the top card {top}",
                             "CL-PILE-6")
    if state.rules.pile_pair_only:
        why = family.why_take(state, move, frozen)
        if why:
            return why
    elif frozen and naturals < 2:
        return RuleViolation(Reason.PILE_FROZEN,
                             "the pile is frozen for your side: a natural pair is needed",
                             "CL-PILE-6")
    if not state.rules.pile_pair_only and move.cards not in take_companions(state):
        existing = tr.find_meld(state.melds[team], rank)
        if existing is None and naturals == 0:
            return RuleViolation(Reason.PILE_TAKE_INVALID,
                                 "no meld of that rank: show a natural card with the top card",
                                 "CL-PILE-7")
        base = existing.naturals if existing else 0
        if len(move.cards) - naturals + (existing.wilds if existing else 0) > wild_cap(
                state.rules, base + 1 + naturals):
            return RuleViolation(Reason.TOO_MANY_WILDS, "too many wild cards", "CL-MELD-1")
        return RuleViolation(Reason.PILE_TAKE_INVALID, f"{move} does not meld the top card",
                             "CL-PILE-7")
    if state.opened[team]:
        if move.extras:
            return RuleViolation(Reason.EXTRA_MELD_NOT_NEEDED,
                                 "extra melds are shown only for an initial meld", "CL-PILE-8")
    else:
        values = state.rules.values
        need = minimum_of(state, state.turn.seat)
        points = values[top] + sum(values[c] for g in (move.cards, *move.extras) for c in g)
        if points < need:
            return RuleViolation(
                Reason.OPENING_MINIMUM_NOT_MET,
                f"the initial meld counts {points}, the minimum is {need} "
                "(only the top card of the pile counts)", "CL-MIN-6")
        if move.extras:
            return RuleViolation(Reason.EXTRA_MELD_NOT_NEEDED,
                                 "show only the extra melds the minimum needs", "CL-PILE-8")
    return RuleViolation(Reason.MUST_KEEP_CARD,
                         "after this take the turn could not end legally", "CL-OUT-3")


def _why_group(state: State, group: Group, rank_hint: int | None) -> RuleViolation | None:
    wild = state.rules.wild
    naturals = [c for c in group if not wild[c]]
    ranks = {RANK[c] for c in naturals}
    if rank_hint is not None:
        ranks.add(rank_hint)
    if len(ranks) > 1:
        return RuleViolation(Reason.MIXED_RANKS, "a meld holds one rank only", "CL-MELD-1")
    if any(RANK[c] == THREE and not IS_BLACK_THREE[c] for c in naturals):
        return RuleViolation(Reason.RANK_NOT_MELDABLE, "red threes are never melded", "CL-MELD-4")
    return None


def _why_meld(state: State, move: Meld | AddToMeld) -> RuleViolation | None:
    rules = state.rules
    wild = rules.wild
    team = state.team_of(state.turn.seat)
    melds = state.melds[team]
    if isinstance(move, Meld):
        if len(move.groups) > 1 and not (rules.opt("initial_meld_validation") == "batch"
                                         and not state.opened[team] and not state.turn.staged):
            return RuleViolation(Reason.ONE_MELD_PER_ACTION,
                                 "lay one meld per action (several only for a batch opening)",
                                 "CL-MIN-8")
        for g in move.groups:
            why = _why_group(state, g, None)
            if why:
                return why
            naturals = sum(1 for c in g if not wild[c])
            rank = tr.group_rank(g, wild)
            if rank == THREE:
                if naturals != len(g):
                    return RuleViolation(Reason.TOO_MANY_WILDS,
                                         "black threes meld without wild cards", "CL-MELD-3")
                if len(g) < 3:
                    return RuleViolation(Reason.MELD_TOO_SMALL, "a meld needs three cards",
                                         "CL-MELD-1")
                return RuleViolation(Reason.BLACK_THREES_ONLY_GOING_OUT,
                                     "black threes are melded only when going out", "CL-MELD-3")
            if rank < 0 or naturals == 0:
                return RuleViolation(Reason.MELD_NEEDS_NATURALS,
                                     "wild cards cannot be melded alone", "CL-MELD-2")
            if len(g) < 3:
                return RuleViolation(Reason.MELD_TOO_SMALL, "a meld needs three cards", "CL-MELD-1")
            if naturals < 2:
                return RuleViolation(Reason.MELD_NEEDS_NATURALS,
                                     "a meld needs two natural cards", "CL-MELD-1")
            if len(g) - naturals > wild_cap(rules, naturals):
                return RuleViolation(Reason.TOO_MANY_WILDS, "too many wild cards in a meld",
                                     "CL-MELD-1")
            if tr.find_meld(melds, rank) is not None:
                return RuleViolation(Reason.MELD_EXISTS,
                                     "your side has a meld of that rank: add to it", "CL-MELD-5")
    else:
        meld = tr.find_meld(melds, move.rank)
        if meld is None:
            return RuleViolation(Reason.NO_SUCH_MELD, "your side has no meld of that rank",
                                 "CL-MELD-6")
        why = _why_group(state, move.cards, move.rank)
        if why:
            return why
        wilds = sum(1 for c in move.cards if wild[c])
        if wilds and meld.is_natural_canasta and rules.opt("natural_canasta_closed_to_wilds"):
            return RuleViolation(Reason.NATURAL_CANASTA_CLOSED,
                                 "no wild card may join a natural canasta", "CL-CAN-3")
        if meld.rank == THREE and wilds:
            return RuleViolation(Reason.TOO_MANY_WILDS, "black threes take no wild cards",
                                 "CL-MELD-3")
        naturals = meld.naturals + len(move.cards) - wilds
        if meld.wilds + wilds > wild_cap(rules, naturals):
            return RuleViolation(Reason.TOO_MANY_WILDS, "a meld holds at most three wild cards",
                                 "CL-MELD-1")
    return _why_meld_context(state, move)


def _why_meld_context(state: State, move: Meld | AddToMeld | Merge) -> RuleViolation:
    rules = state.rules
    seat = state.turn.seat
    team = state.team_of(seat)
    if isinstance(move, Merge):
        cards: tuple[Card, ...] = ()
    else:
        cards = move.cards if isinstance(move, AddToMeld) else tuple(
            c for g in move.groups for c in g)
    left = len(state.hands[seat]) - len(cards)
    if left < 2 and not rules.going_out:
        return RuleViolation(Reason.MUST_KEEP_CARD, "nobody goes out: keep two cards to "
                             "discard one and hold one", "BO-OUT-2")
    why = family.why_context(state, move)
    if why:
        return why
    if left < 2:
        if state.turn.answer == "no":
            return RuleViolation(Reason.GO_OUT_REFUSED,
                                 "your partner said no: keep a card to discard", "CL-OUT-6")
        if canastas(tr.stage(state, move)) < rules.canastas_to_go_out:
            return RuleViolation(
                Reason.GO_OUT_NEEDS_CANASTAS,
                f"going out needs {rules.canastas_to_go_out} canasta(s): keep a card",
                "CL-OUT-3")
    if not state.opened[team] and rules.opt("initial_meld_validation") == "batch":
        return RuleViolation(Reason.OPENING_MINIMUM_NOT_MET,
                             "the initial meld must reach the minimum in one action", "CL-MIN-8")
    if not state.opened[team]:
        return RuleViolation(Reason.OPENING_MINIMUM_NOT_MET,
                             "the minimum count can no longer be reached this turn", "CL-MIN-8")
    return RuleViolation(Reason.MUST_KEEP_CARD, "keep a card to discard", "CL-OUT-3")


def _why_end(state: State, move: Discard | GoOut | EndHand) -> RuleViolation | None:
    seat = state.turn.seat
    hand = state.hands[seat]
    card = move.card if isinstance(move, (Discard, GoOut)) else None
    if card is not None and card not in hand:
        return RuleViolation(Reason.CARDS_NOT_IN_HAND, f"{card} is not in the hand", "CL-DISC-1")
    if isinstance(move, EndHand):
        return RuleViolation(Reason.WRONG_PHASE, "the turn goes on: discard", "CL-EXH-2")
    if state.turn.no_discard:
        return RuleViolation(Reason.WRONG_PHASE,
                             "after a red three as the last stock card there is no discard",
                             "CL-EXH-2")
    if not state.rules.going_out and (isinstance(move, GoOut) or len(hand) <= 1):
        return RuleViolation(Reason.MUST_KEEP_CARD,
                             "nobody goes out: the last card may not be discarded", "BO-OUT-1")
    if not minimum_met(state) and not (isinstance(move, GoOut) and out_allowed(state)):
        return RuleViolation(Reason.OPENING_MINIMUM_NOT_MET,
                             "the melds of this turn do not reach the minimum: add or undo",
                             "CL-MIN-8")
    going_out = isinstance(move, GoOut)
    if not going_out and len(hand) <= 1:
        return RuleViolation(Reason.MUST_KEEP_CARD,
                             "discarding the last card is going out: use 'out'", "CL-DISC-5")
    if going_out:
        if len(hand) != (0 if card is None else 1):
            return RuleViolation(Reason.MUST_KEEP_CARD,
                                 "go out by melding all but at most one card first", "CL-OUT-1")
        if state.turn.answer == "no":
            return RuleViolation(Reason.GO_OUT_REFUSED, "your partner said no", "CL-OUT-6")
        return RuleViolation(Reason.GO_OUT_NEEDS_CANASTAS,
                             f"going out needs {state.rules.canastas_to_go_out} canasta(s)",
                             "CL-OUT-1")
    if not state.rules.black_threes_any_time and any(
            isinstance(m, Meld) and tr.group_rank(m.groups[0], state.rules.wild) == THREE
            for m in state.turn.staged):
        return RuleViolation(Reason.BLACK_THREES_ONLY_GOING_OUT,
                             "black threes were melded: this turn must go out", "CL-MELD-3")
    if state.turn.answer == "yes":
        return RuleViolation(Reason.MUST_GO_OUT,
                             "your partner said yes and you can go out: you must", "CL-OUT-5")
    return None

