"""Applying moves: ``apply(state, move) -> state``, checked, pure and atomic.

A move is first canonicalised (the client's choice of identical-rank copies is
replaced by the canonical one), then looked up in the legal list. A move that
is not listed is refused with the first rule check it fails
(:func:`engine.checks.refusal`, the checks the generators keep their moves by);
the input state is never touched.
"""

from __future__ import annotations

from typing import overload

from engine import transitions as tr
from engine.canasta_reasons import CanastaViolation
from engine.cards import IS_BLACK_THREE, JOKER, RANK, Card
from engine.checks import refusal
from engine.errors import BadInput, Reason
from engine.games import game_of
from engine.hands import remove_cards
from engine.legal import canasta_legal_moves
from engine.mayi.state import AnyState, MayIState
from engine.melds import SEQ_RANK, WILD_RANK, first_of_rank, labels, meld_rank
from engine.moves import (
    AddToMeld,
    Answer,
    Ask,
    CanastaMove,
    Discard,
    Draw,
    GoOut,
    Group,
    Meld,
    Merge,
    Move,
    TakePile,
    Undo,
    canonical_group,
    listed_as,
)
from engine.state import Phase, State, evolve, stamp_ply


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
        over = state.phase is Phase.GAME_OVER
        raise CanastaViolation(Reason.GAME_OVER if over else Reason.HAND_OVER,
                               "the hand is over: deal the next one", "CL-TURN-4")
    if seat is not None:
        if not 0 <= seat < state.rules.players:
            raise BadInput(Reason.BAD_SEAT, f"there is no seat {seat}")
        if seat != state.awaited:
            raise CanastaViolation(Reason.NOT_YOUR_TURN,
                                   f"seat {state.awaited} is to move, not seat {seat}", "CL-TURN-2")
    chosen = move
    move = canasta_canonicalize(state, move)
    # a move canonicalize keeps as it is may be the listed object itself (a bot's pick)
    own = listed_as(canasta_legal_moves(state), move, move is chosen)
    if own is None:
        why = refusal(state, move)
        if why is None:  # the checks pass a move the generator left out: never seen
            raise CanastaViolation(Reason.NOT_LISTED, f"{move} is not legal here", "CL-TURN-3")
        # a fresh error: the checks may hand out one shared instance
        raise CanastaViolation(why.reason, why.message, why.rule)
    return _do(state, own)


def _do(state: State, move: CanastaMove) -> State:
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
    if nxt is state:  # never seen: each transition builds a successor
        return evolve(state, ply=state.ply + 1)
    stamp_ply(nxt, state.ply + 1)
    return nxt


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
        raise CanastaViolation(Reason.CARDS_NOT_IN_HAND,
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
