"""Applying May I? moves: checked, pure and atomic, with the most specific refusal.

A move is canonicalised (group and card order of ``down``), then looked up in the
legal list of the seat that makes it; anything not listed is refused with a
:class:`~engine.errors.RuleViolation` whose reason says why. The input state is
never changed.

Who moves: the awaited seat (``state.awaited``). While a buy window is open that
is the candidate whose answer is due; with ``buy_priority=first_call`` any seat
still in the window may answer out of order by naming itself (``seat=``), so a
host applies the calls in the order they arrive.
"""

from __future__ import annotations

from typing import Final

from engine.errors import BadInput, Reason, RuleViolation
from engine.mayi import transitions as tr
from engine.mayi.legal import (
    contract_problem,
    legal_moves,
    legal_moves_for,
    may_answer_window,
    may_discard,
    may_lay_off,
)
from engine.mayi.melds import extend
from engine.mayi.moves import Buy, GoDown, LayOff, PassBuy, canonical_groups
from engine.mayi.state import MayIState
from engine.mayi.successor import BUY_WINDOW, GAME_OVER, HAND_OVER
from engine.moves import Discard, Draw, Move, TakePile
from engine.state import Phase

_PHASE_OF: Final[dict[type, Phase]] = {
    TakePile: Phase.DRAW, Draw: Phase.DRAW, Buy: Phase.BUY_WINDOW, PassBuy: Phase.BUY_WINDOW,
    GoDown: Phase.MELD, LayOff: Phase.MELD, Discard: Phase.MELD,
}


def apply(state: MayIState, move: Move, seat: int | None = None) -> MayIState:
    """The state after ``move`` by ``seat`` (default: the awaited seat).

    :raises RuleViolation: the move is not legal here, or not for this seat.
    :raises BadInput: the seat does not exist.
    """
    phase = state.phase
    if phase is HAND_OVER or phase is GAME_OVER:
        over = phase is GAME_OVER
        raise RuleViolation(Reason.GAME_OVER if over else Reason.HAND_OVER,
                            "the deal is over: deal the next one" if not over
                            else "the game is over", "MI-OUT-2")
    awaited = state.turn.window[0] if phase is BUY_WINDOW else state.turn.seat
    mover = awaited
    if seat is not None:
        if isinstance(seat, bool) or not 0 <= seat < state.rules.players:
            raise BadInput(Reason.BAD_SEAT, f"there is no seat {seat}")
        if seat != mover:
            if not (isinstance(move, (Buy, PassBuy)) and may_answer_window(state, seat)):
                raise out_of_turn(state, seat, move)
            mover = seat
    if type(move) is GoDown:
        move = canonicalize(state, move)
    if mover == awaited:
        cached = state._legal
        listed = cached if cached is not None else legal_moves(state)  # no copy needed here
    else:
        listed = legal_moves_for(state, mover)
    for m in listed:  # a bot sends a listed object back: find it by identity first
        if m is move:
            break
    else:
        if move not in listed:
            raise diagnose(state, move, mover)
    nxt = _play(state, move, mover)  # always a fresh object: set its ply in place
    object.__setattr__(nxt, "ply", state.ply + 1)
    return nxt


def _play(state: MayIState, move: Move, mover: int) -> MayIState:
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


# --- why a move is refused -----------------------------------------------------------


def out_of_turn(state: MayIState, seat: int, move: Move) -> RuleViolation:
    """The refusal of a move by a seat that is not awaited."""
    if isinstance(move, Buy):
        return _why_buy(state, seat)
    if isinstance(move, PassBuy) and state.phase is Phase.BUY_WINDOW and seat in state.turn.window:
        return RuleViolation(Reason.NOT_YOUR_TURN,
                             f"seat {state.awaited} answers first", "MI-BUY-3")
    return RuleViolation(Reason.NOT_YOUR_TURN,
                         f"seat {state.awaited} is to move, not seat {seat}", "MI-TURN-2")


def _why_buy(state: MayIState, seat: int) -> RuleViolation:
    t = state.turn
    if state.phase is Phase.DRAW and t.fresh and seat != t.seat:
        return RuleViolation(Reason.BUY_NOT_ALLOWED,
                             f"seat {t.seat} has not declined the discard yet", "MI-BUY-1")
    if state.phase is not Phase.BUY_WINDOW:
        return RuleViolation(Reason.BUY_NOT_ALLOWED, "no discard is offered for buying now",
                             "MI-BUY-4")
    refusal = tr.buy_refusal(state, seat)
    if refusal is not None:
        return RuleViolation(Reason.BUY_NOT_ALLOWED, refusal[1], refusal[0])
    if seat in t.window:
        return RuleViolation(Reason.NOT_YOUR_TURN,
                             f"seat {state.awaited} answers first", "MI-BUY-3")
    return RuleViolation(Reason.BUY_NOT_ALLOWED, f"seat {seat} has passed on this discard",
                         "MI-BUY-3")


def diagnose(state: MayIState, move: Move, mover: int) -> RuleViolation:
    """The most specific reason a canonical, unlisted move is illegal for ``mover``."""
    phase = _PHASE_OF.get(type(move))
    if phase is None or (isinstance(move, TakePile) and move != TakePile()):
        return RuleViolation(Reason.NOT_LISTED, f"{move} is not a move of May I?", "MI-TURN-2")
    if isinstance(move, Buy) and state.phase is Phase.DRAW:
        return RuleViolation(Reason.BUY_NOT_ALLOWED, "the player in turn takes the discard as "
                             "his draw ('take'), or declines it with 'draw'", "MI-BUY-1")
    if isinstance(move, TakePile) and state.phase is Phase.DRAW:
        return RuleViolation(Reason.PILE_EMPTY, "no discard to take: draw from the stock",
                             "MI-TURN-1")
    if phase is not state.phase:
        return RuleViolation(Reason.WRONG_PHASE,
                             f"{move} is not a move of the {state.phase.value} phase", "MI-TURN-2")
    found: RuleViolation | None = None
    if isinstance(move, GoDown):
        found = _why_down(state, move)
    elif isinstance(move, LayOff):
        found = _why_layoff(state, move)
    elif isinstance(move, Discard):
        found = _why_discard(state, move)
    return found or RuleViolation(Reason.NOT_LISTED, f"{move} is not legal here", "MI-TURN-2")


def _why_down(state: MayIState, move: GoDown) -> RuleViolation | None:
    seat = state.turn.seat
    if state.down[seat]:
        return RuleViolation(Reason.ALREADY_DOWN, "a player goes down only once a deal",
                             "MI-CON-4")
    cards = [c for g in move.groups for c in g]
    left = tr.remove(state.hands[seat], cards)
    if left is None:
        return RuleViolation(Reason.CARDS_NOT_IN_HAND, f"{move} uses cards not in the hand",
                             "MI-CON-1")
    problem = contract_problem(state, move)
    if problem is not None:
        return RuleViolation(Reason.CONTRACT_NOT_MET, problem[1], problem[0])
    if not left and state.rules.keep_one:
        return RuleViolation(Reason.MUST_KEEP_CARD, "keep a card for the final discard",
                             "MI-OUT-1")
    return None


def _why_layoff(state: MayIState, move: LayOff) -> RuleViolation | None:
    seat = state.turn.seat
    if not state.down[seat]:
        return RuleViolation(Reason.NOT_GONE_DOWN, "only a player who has gone down lays off",
                             "MI-OFF-1")
    if not may_lay_off(state):
        return RuleViolation(Reason.LAYOFF_TOO_EARLY,
                             "laying off starts in the turn after going down", "MI-OFF-1")
    if not (0 <= move.seat < len(state.melds) and 0 <= move.meld < len(state.melds[move.seat])):
        return RuleViolation(Reason.NO_SUCH_MELD, f"seat {move.seat} has no meld {move.meld}",
                             "MI-OFF-2")
    hand = state.hands[seat]
    if move.card not in hand:
        return RuleViolation(Reason.CARDS_NOT_IN_HAND, f"{move.card} is not in the hand",
                             "MI-OFF-3")
    if extend(state.melds[move.seat][move.meld], move.card, state.rules.wrap) is None:
        return RuleViolation(Reason.CARD_DOES_NOT_FIT,
                             f"{move.card} does not fit {state.melds[move.seat][move.meld]}",
                             "MI-OFF-3")
    if len(hand) == 1 and state.rules.keep_one:
        return RuleViolation(Reason.MUST_KEEP_CARD, "keep a card for the final discard",
                             "MI-OUT-1")
    return None


def _why_discard(state: MayIState, move: Discard) -> RuleViolation | None:
    if move.card not in state.hands[state.turn.seat]:
        return RuleViolation(Reason.CARDS_NOT_IN_HAND, f"{move.card} is not in the hand",
                             "MI-TURN-2")
    if not may_discard(state, move.card):
        return RuleViolation(Reason.TAKEN_CARD_DISCARD,
                             f"{move.card} was just taken from the pile", "MI-TURN-4")
    return None
