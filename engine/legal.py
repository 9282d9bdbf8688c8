"""The legal-move generator: every legal move of the awaited seat, canonical and sorted.

Melds are listed by *shape* (how many naturals, jokers and deuces), with the
concrete copies picked canonically (lowest card ids), so identical cards never
make two moves. The list is the single source of truth: :func:`engine.play.apply`
accepts exactly the moves listed here (after canonicalising the cards a client
chose), and refuses the others with the first rule check they fail
(engine/checks.py): the generators keep the candidates that pass the same checks.
"""

from __future__ import annotations

from typing import Final

from engine.cards import CARDS
from engine.checks import draw_refusal
from engine.games import game_of
from engine.mayi.state import AnyState
from engine.moves import (
    Answer,
    Ask,
    CanastaMove,
    Decline,
    Discard,
    Draw,
    EndHand,
    GoOut,
    Move,
    Undo,
)
from engine.state import Phase, State
from engine.takes import decline_refusal, take_moves
from engine.turn import ask_refusal, end_refusal, meld_actions, undo_refusal


def legal_moves(state: AnyState) -> list[Move]:
    """Every legal move of ``state.awaited``, in a deterministic order, without duplicates.

    Pure and cached on the (immutable) state. Each game lists its own
    (engine/games.py); this module lists the Canasta family's.
    """
    moves: list[Move] = game_of(state).legal_moves(state)
    return moves


def legal_moves_for(state: AnyState, seat: int) -> list[Move]:
    """The moves ``seat`` may make now: the awaited seat's list, in May I? the buy
    window's answers of a seat that may answer out of turn, and none otherwise."""
    moves: list[Move] = game_of(state).legal_moves_for(state, seat)
    return moves


def canasta_legal_moves(state: State) -> list[CanastaMove]:
    """:func:`legal_moves` of a Canasta-family state."""
    cached = state._legal
    if cached is not None:
        return list(cached)
    phase = state.phase
    if phase is Phase.DRAW or phase is Phase.DRAW_EXHAUSTED:
        moves = _draw_moves(state)
    elif phase is Phase.MELD:
        moves = _meld_phase_moves(state)
    elif phase is Phase.PERMISSION:
        moves = [Answer(True), Answer(False)]
    else:
        moves = []
    # one assignment of a finished tuple: a thread racing on the same state computes an
    # equal one, and neither can see a half-filled or doubled list
    object.__setattr__(state, "_legal", tuple(moves))
    return moves


def canasta_legal_moves_for(state: State, seat: int) -> list[CanastaMove]:
    """:func:`legal_moves_for` of a Canasta-family state: the awaited seat alone moves."""
    return canasta_legal_moves(state) if seat == state.awaited and seat >= 0 else []


def is_legal(state: AnyState, move: Move) -> bool:
    """Whether a canonical move is in the legal list."""
    return move in legal_moves(state)


def _draw_moves(state: State) -> list[CanastaMove]:
    moves: list[CanastaMove] = []
    if state.phase is Phase.DRAW and draw_refusal(state) is None:
        moves.append(_DRAW)
    takes = take_moves(state)
    moves.extend(takes)
    if state.phase is Phase.DRAW_EXHAUSTED and decline_refusal(state, takes) is None:
        moves.append(_DECLINE)
    if ask_refusal(state) is None:
        moves.append(_ASK)
    return moves


# Moves are immutable values: each is built once.
_DISCARDS: Final[tuple[Discard, ...]] = tuple(Discard(c) for c in CARDS)
_DRAW: Final = Draw()
_DECLINE: Final = Decline()
_ASK: Final = Ask()
_UNDO: Final = Undo()
_OUT: Final = GoOut()
_END: Final = EndHand()


def _meld_phase_moves(state: State) -> list[CanastaMove]:
    """Meld actions, undo, ask, then the moves that end the turn, last (as
    :func:`engine.bots.random_move` expects)."""
    moves = meld_actions(state)
    t = state.turn
    hand = state.hands[t.seat]
    if undo_refusal(state) is None:
        moves.append(_UNDO)
    if ask_refusal(state) is None:
        moves.append(_ASK)
    # the turn's end: the checks' verdict is the same for every card of the hand
    if not hand:
        end: Discard | GoOut | EndHand = _OUT
    elif t.no_discard:
        end = _END
    elif len(hand) == 1:
        end = GoOut(hand[0])
    else:
        end = _DISCARDS[hand[0]]
    if end_refusal(state, end) is None:
        if type(end) is Discard:
            last = -1
            for c in hand:  # a hand is sorted: each type once, in id order
                i: int = c  # a plain int: compiled, a machine comparison and index
                if i != last:
                    last = i
                    moves.append(_DISCARDS[i])
        else:
            moves.append(end)
    return moves
