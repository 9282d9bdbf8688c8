"""Why a Canasta-family move is refused: the first rule check it fails, or ``None``.

Each rule is written once, as a check that returns the
:class:`~engine.errors.RuleViolation` it raises or ``None``, beside the generator
that lists the moves passing it (in the manner of PokerKit's ``verify_*`` /
``can_*``): the pile and the takes in engine/takes.py, the meld shapes in
engine/meld_checks.py (their limits in engine/shapes.py), the turn's checks of a meld
action, of asking, undoing and ending the turn in engine/turn.py. :func:`refusal`
runs them in order for one move; engine/play.py refuses an unlisted move with the
first one it fails.
"""

from __future__ import annotations

from typing import Final

from engine.canasta_reasons import CanastaViolation
from engine.errors import Reason
from engine.hands import HandView
from engine.meld_checks import shape_refusal
from engine.moves import (
    AddToMeld,
    Answer,
    Ask,
    Decline,
    Discard,
    Draw,
    EndHand,
    GoOut,
    Meld,
    Merge,
    Move,
    TakePile,
    Undo,
)
from engine.state import Phase, State
from engine.takes import decline_refusal, take_moves, take_refusal
from engine.turn import ask_refusal, end_refusal, meld_context_refusal, turn_facts, undo_refusal

_PHASE_OF: Final[dict[type, tuple[Phase, ...]]] = {
    Draw: (Phase.DRAW,),
    TakePile: (Phase.DRAW, Phase.DRAW_EXHAUSTED),
    Decline: (Phase.DRAW_EXHAUSTED,),
    Meld: (Phase.MELD,), AddToMeld: (Phase.MELD,), Merge: (Phase.MELD,), Discard: (Phase.MELD,),
    GoOut: (Phase.MELD,), Undo: (Phase.MELD,), EndHand: (Phase.MELD,),
    Ask: (Phase.DRAW, Phase.DRAW_EXHAUSTED, Phase.MELD),
    Answer: (Phase.PERMISSION,),
}


def phase_refusal(state: State, move: Move) -> CanastaViolation | None:
    """CL-TURN-1: each move has its phases (a move of another game has none); CL-EXH-4:
    no stock draw once the stock is empty."""
    if state.phase in _PHASE_OF.get(type(move), ()):
        return None
    why = draw_refusal(state) if isinstance(move, Draw) and state.phase is Phase.DRAW_EXHAUSTED \
        else None
    return why or CanastaViolation(Reason.WRONG_PHASE,
                         f"{move} is not a move of the {state.phase.value} phase", "CL-TURN-1")


def refusal(state: State, move: Move) -> CanastaViolation | None:
    """The first rule check a canonical move fails in a Canasta-family state of the
    awaited seat's turn, or ``None`` when it passes them all (then it is listed)."""
    why = phase_refusal(state, move)
    if why is not None:
        return why
    if isinstance(move, TakePile):
        return take_refusal(state, move)
    if isinstance(move, (Meld, AddToMeld, Merge)):
        why = shape_refusal(state, move)
        if why is not None:
            return why
        hand = state.hands[state.turn.seat]
        return meld_context_refusal(state, move, turn_facts(state, HandView(state.rules, hand)))
    if isinstance(move, (Discard, GoOut, EndHand)):
        return end_refusal(state, move)
    if isinstance(move, Ask):
        return ask_refusal(state)
    if isinstance(move, Undo):
        return undo_refusal(state)
    if isinstance(move, Decline):
        return decline_refusal(state, take_moves(state))
    if isinstance(move, Draw):
        return draw_refusal(state)
    return None  # an answer to the partner: both are listed


_STOCK_EMPTY: Final = CanastaViolation(Reason.STOCK_EMPTY, "the stock is empty", "CL-EXH-4")


def draw_refusal(state: State) -> CanastaViolation | None:
    """CL-EXH-4: no stock draw once the stock is empty."""
    return None if state.stock else _STOCK_EMPTY
