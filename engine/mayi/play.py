"""Applying May I? moves: checked, pure and atomic, with the most specific refusal.

A move is canonicalised (group and card order of ``down``), then looked up in the
legal list of the seat that makes it; anything not listed is refused with the
first rule check it fails (:func:`engine.mayi.checks.refusal`, the checks the
generators keep their moves by). The input state is never changed.

Who moves: the awaited seat (``state.awaited``). While a buy window is open that
is the candidate whose answer is due; with ``buy_priority=first_call`` any seat
still in the window may answer out of order by naming itself (``seat=``), so a
host applies the calls in the order they arrive.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from engine.errors import BadInput, Reason
from engine.mayi import transitions as tr
from engine.mayi.checks import refusal, seat_refusal
from engine.mayi.legal import legal_moves, legal_moves_for, may_answer_window
from engine.mayi.moves import Buy, GoDown, LayOff, MayIMove, PassBuy, canonical_groups
from engine.mayi.reasons import MayIViolation
from engine.mayi.state import MayIState
from engine.mayi.successor import BUY_WINDOW, GAME_OVER, HAND_OVER
from engine.moves import Discard, Draw, Move, TakePile, listed_as
from engine.state import stamp_ply


def apply(state: MayIState, move: Move, seat: int | None = None) -> MayIState:
    """The state after ``move`` by ``seat`` (default: the awaited seat).

    :raises RuleViolation: the move is not legal here, or not for this seat.
    :raises BadInput: the seat does not exist.
    """
    phase = state.phase
    if phase is HAND_OVER or phase is GAME_OVER:
        over = phase is GAME_OVER
        raise MayIViolation(Reason.GAME_OVER if over else Reason.HAND_OVER,
                            "the deal is over: deal the next one" if not over
                            else "the game is over", "MI-OUT-2")
    awaited = state.turn.window[0] if phase is BUY_WINDOW else state.turn.seat
    mover = awaited
    if seat is not None:
        if isinstance(seat, bool) or not 0 <= seat < state.rules.players:
            raise BadInput(Reason.BAD_SEAT, f"there is no seat {seat}")
        if seat != mover:
            if not (isinstance(move, (Buy, PassBuy)) and may_answer_window(state, seat)):
                raise seat_refusal(state, seat, move)
            mover = seat
    if type(move) is GoDown:
        move = canonicalize(state, move)
    listed: Sequence[MayIMove]
    if mover == awaited:
        cached = cast("tuple[MayIMove, ...] | None", state._legal)  # legal_moves stored it
        listed = cached if cached is not None else legal_moves(state)  # no copy needed here
    else:
        listed = legal_moves_for(state, mover)
    own = listed_as(listed, move)
    if own is None:  # only the awaited seat: the window's answers are listed
        why = refusal(state, move)
        if why is None:  # the checks pass a move the generator left out: never seen
            raise MayIViolation(Reason.NOT_LISTED, f"{move} is not legal here", "MI-TURN-2")
        # a fresh error: the checks may hand out one shared instance
        raise MayIViolation(why.reason, why.message, why.rule)
    nxt = _play(state, own, mover)  # always a fresh object: set its ply in place
    stamp_ply(nxt, state.ply + 1)
    return nxt


def _play(state: MayIState, move: MayIMove, mover: int) -> MayIState:
    """The transition of a listed move (the commonest kinds first)."""
    if type(move) is Discard:
        return tr.discard(state, move.card)
    if type(move) is Draw:
        return tr.decline_and_draw(state)
    if type(move) is TakePile:
        return tr.take(state)
    if type(move) is PassBuy:
        return tr.pass_buy(state, mover)
    if type(move) is Buy:
        return tr.buy(state, mover)
    if type(move) is LayOff:
        return tr.lay_off(state, move)
    assert type(move) is GoDown
    return tr.go_down(state, move)


def canonicalize(state: MayIState, move: Move) -> Move:
    """The canonical form of a move: ``down`` groups and their cards in canonical order."""
    if isinstance(move, GoDown):
        return GoDown(canonical_groups(move.groups))
    return move
