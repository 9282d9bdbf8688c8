"""Why a May I? move is refused: the first rule check it fails, or ``None``.

As engine/checks.py does for the Canasta family, each rule is written once, as a
check that returns the :class:`~engine.errors.RuleViolation` it raises or ``None``:
the generators of engine/mayi/legal.py list the moves that pass the turn's checks
(:func:`down_turn_refusal`, :func:`layoff_turn_refusal`, :func:`keep_card_refusal`,
:func:`barred_discard`), and engine/mayi/play.py refuses an unlisted move with the
first check :func:`refusal` finds it fails. Going down is listed by construction
(every combination of the hand's melds that meets the contract); its check form,
:func:`contract_refusal`, reads one ``down`` against the same rules, and the property
tests hold the two to each other.
"""

from __future__ import annotations

from typing import Final

from engine.cards import Card
from engine.errors import Reason
from engine.hands import remove_cards
from engine.mayi import transitions as tr
from engine.mayi.melds import classify, contiguous, extend
from engine.mayi.moves import Buy, GoDown, LayOff, PassBuy, canonical_groups
from engine.mayi.reasons import MayIViolation
from engine.mayi.rules import MayIRules
from engine.mayi.state import MayIState, MayITurn
from engine.mayi.table import TableMeld
from engine.moves import Discard, Draw, Move, TakePile
from engine.state import Phase

_PHASE_OF: Final[dict[type, Phase]] = {
    TakePile: Phase.DRAW, Draw: Phase.DRAW, Buy: Phase.BUY_WINDOW, PassBuy: Phase.BUY_WINDOW,
    GoDown: Phase.MELD, LayOff: Phase.MELD, Discard: Phase.MELD,
}


def refusal(state: MayIState, move: Move) -> MayIViolation | None:
    """The first rule check a canonical move of the awaited seat fails, or ``None`` when
    it passes them all (then it is listed)."""
    why = phase_refusal(state, move)
    if why is not None:
        return why
    if isinstance(move, TakePile):
        return take_refusal(state)
    if isinstance(move, GoDown):
        return down_refusal(state, move)
    if isinstance(move, LayOff):
        return layoff_refusal(state, move)
    if isinstance(move, Discard):
        return discard_refusal(state, move.card)
    return None  # draw, and buy or pass in the window: always listed in their phase


def phase_refusal(state: MayIState, move: Move) -> MayIViolation | None:
    """MI-TURN-2: each move has its phase; MI-BUY-1: the player in turn does not buy (a
    ``buy`` outside a window is ``BUY_NOT_ALLOWED``, docs/rules-may-i.md, not a wrong phase).
    A move of the Canasta family that May I? lacks (a ``take`` naming cards, a meld)
    is ``NOT_LISTED``: no rule of this game speaks of it."""
    phase = _PHASE_OF.get(type(move))
    if phase is None or (isinstance(move, TakePile) and move != TakePile()):
        return MayIViolation(Reason.NOT_LISTED, f"{move} is not a move of May I?", "MI-TURN-2")
    if isinstance(move, Buy) and state.phase is Phase.DRAW:
        return MayIViolation(Reason.BUY_NOT_ALLOWED, "the player in turn takes the discard as "
                             "his draw ('take'), or declines it with 'draw'", "MI-BUY-1")
    if isinstance(move, Buy) and state.phase is Phase.MELD:  # a buy outside a window
        return MayIViolation(Reason.BUY_NOT_ALLOWED, "the player in turn does not buy: he "
                             "has drawn", "MI-BUY-1")
    if phase is not state.phase:
        return MayIViolation(Reason.WRONG_PHASE,
                             f"{move} is not a move of the {state.phase.value} phase", "MI-TURN-2")
    return None


# The refusals the generators meet on their way are shared instances (no exception
# built per list); engine/mayi/play.py raises a fresh copy.
_NO_DISCARD: Final = MayIViolation(Reason.PILE_EMPTY, "no discard to take: draw from the stock",
                                   "MI-TURN-1")
_KEEP_CARD: Final = MayIViolation(Reason.MUST_KEEP_CARD, "keep a card for the final discard",
                                  "MI-OUT-1")
_ALREADY_DOWN: Final = MayIViolation(Reason.ALREADY_DOWN, "a player goes down only once a deal",
                                     "MI-CON-4")
_NOT_DOWN: Final = MayIViolation(Reason.NOT_GONE_DOWN, "only a player who has gone down lays off",
                                 "MI-OFF-1")
_TOO_EARLY: Final = MayIViolation(Reason.LAYOFF_TOO_EARLY,
                                  "laying off starts in the turn after going down", "MI-OFF-1")


def take_refusal(state: MayIState) -> MayIViolation | None:
    """MI-TURN-1/3: the player in turn takes only a fresh discard, before drawing."""
    return None if state.turn.fresh and state.pile else _NO_DISCARD


# --- the seat that moves -----------------------------------------------------------------


def seat_refusal(state: MayIState, seat: int, move: Move) -> MayIViolation:
    """MI-TURN-2, MI-BUY-1..7: the refusal of a move by a seat that is not awaited (nor
    may answer the buy window out of order)."""
    if isinstance(move, Buy):
        return buy_refusal(state, seat)
    if isinstance(move, PassBuy) and state.phase is Phase.BUY_WINDOW and seat in state.turn.window:
        return _answers_first(state)
    return MayIViolation(Reason.NOT_YOUR_TURN,
                         f"seat {state.awaited} is to move, not seat {seat}", "MI-TURN-2")


def buy_refusal(state: MayIState, seat: int) -> MayIViolation:
    """Why ``seat`` may not buy now: no window (MI-BUY-1/4), the seat's own eligibility
    (:func:`engine.mayi.transitions.buy_refusal`, which also picks the window's seats),
    or its place in the window (MI-BUY-3)."""
    t = state.turn
    if state.phase is Phase.DRAW and t.fresh and seat != t.seat:
        return MayIViolation(Reason.BUY_NOT_ALLOWED,
                             f"seat {t.seat} has not declined the discard yet", "MI-BUY-1")
    if state.phase is not Phase.BUY_WINDOW:
        return MayIViolation(Reason.BUY_NOT_ALLOWED, "no discard is offered for buying now",
                             "MI-BUY-4")
    why = tr.buy_refusal(state, seat)
    if why is not None:
        return MayIViolation(Reason.BUY_NOT_ALLOWED, why[1], why[0])
    if seat in t.window:
        return _answers_first(state)
    return MayIViolation(Reason.BUY_NOT_ALLOWED, f"seat {seat} has passed on this discard",
                         "MI-BUY-3")


def _answers_first(state: MayIState) -> MayIViolation:
    """MI-BUY-3: a seat still in the window waits for the one whose answer is due."""
    return MayIViolation(Reason.NOT_YOUR_TURN, f"seat {state.awaited} answers first", "MI-BUY-3")


# --- the meld phase ---------------------------------------------------------------------


def keep_card_refusal(rules: MayIRules, left: int) -> MayIViolation | None:
    """MI-OUT-1: with ``keep_one``, a meld action keeps a card for the final discard."""
    return None if left or not rules.keep_one else _KEEP_CARD


def down_turn_refusal(state: MayIState) -> MayIViolation | None:
    """MI-CON-4: a player goes down once a deal."""
    return _ALREADY_DOWN if state.down[state.turn.seat] else None


def down_refusal(state: MayIState, move: GoDown) -> MayIViolation | None:
    """Going down: once (MI-CON-4), with the hand's cards (MI-CON-1), meeting the deal's
    contract exactly (:func:`contract_refusal`), keeping a card (MI-OUT-1)."""
    why = down_turn_refusal(state)
    if why is not None:
        return why
    left = remove_cards(state.hands[state.turn.seat], [c for g in move.groups for c in g])
    if left is None:
        return MayIViolation(Reason.CARDS_NOT_IN_HAND, f"{move} uses cards not in the hand",
                             "MI-CON-1")
    return contract_refusal(state, move) or keep_card_refusal(state.rules, len(left))


def contract_refusal(state: MayIState, move: GoDown) -> MayIViolation | None:
    """MI-MELD-1, MI-CON-2/3: each group a meld of the contract's sizes, exactly the
    deal's sets and sequences, no two sequences of a suit joined end to end (unless
    ``joinable``)."""
    rules = state.rules
    need_sets, need_runs = rules.contract(state.hand_no)
    melds: list[TableMeld] = []
    for g in move.groups:
        meld = classify(g, rules.wrap, exact=rules.exact)
        if meld is None:
            what = "exactly 3 cards of a rank or 4 in suit sequence" if rules.exact else \
                "3+ cards of a rank or 4+ in suit sequence"
            if classify(g, rules.wrap) is not None:
                shown = " ".join(str(c) for c in canonical_groups([g])[0])
                return MayIViolation(Reason.CONTRACT_NOT_MET,
                                     f"{shown} has the wrong size: the contract wants {what}",
                                     "MI-CON-2")
            return MayIViolation(Reason.CONTRACT_NOT_MET,
                                 f"{' '.join(str(c) for c in g)} is not a meld ({what})",
                                 "MI-MELD-1")
        melds.append(meld)
    sets = sum(1 for m in melds if not m.is_run)
    if (sets, len(melds) - sets) != (need_sets, need_runs):
        return MayIViolation(Reason.CONTRACT_NOT_MET,
                             f"deal {state.hand_no + 1} needs exactly {need_sets} set(s) and "
                             f"{need_runs} sequence(s), not {sets} and {len(melds) - sets}",
                             "MI-CON-2")
    if not rules.joinable:
        runs = [m for m in melds if m.is_run]
        for i, a in enumerate(runs):
            if any(contiguous(a, b, rules.wrap) for b in runs[i + 1:]):
                return MayIViolation(Reason.CONTRACT_NOT_MET,
                                     "two sequences of one suit may not join end to end",
                                     "MI-CON-3")
    return None


def layoff_turn_refusal(state: MayIState) -> MayIViolation | None:
    """MI-OFF-1: only a player who has gone down lays off, and not in the turn he went
    down unless ``layoff_same_turn``."""
    if not state.down[state.turn.seat]:
        return _NOT_DOWN
    if state.turn.went_down and not state.rules.same_turn_layoff:
        return _TOO_EARLY
    return None


def layoff_refusal(state: MayIState, move: LayOff) -> MayIViolation | None:
    """Laying off: when the turn allows it (:func:`layoff_turn_refusal`), on a meld on the
    table (MI-OFF-2), a card of the hand that extends it (MI-OFF-3), keeping a card
    (MI-OUT-1)."""
    why = layoff_turn_refusal(state)
    if why is not None:
        return why
    if not (0 <= move.seat < len(state.melds) and 0 <= move.meld < len(state.melds[move.seat])):
        return MayIViolation(Reason.NO_SUCH_MELD, f"seat {move.seat} has no meld {move.meld}",
                             "MI-OFF-2")
    hand = state.hands[state.turn.seat]
    if move.card not in hand:
        return MayIViolation(Reason.CARDS_NOT_IN_HAND, f"{move.card} is not in the hand",
                             "MI-OFF-3")
    meld = state.melds[move.seat][move.meld]
    if extend(meld, move.card, state.rules.wrap) is None:
        return MayIViolation(Reason.CARD_DOES_NOT_FIT, f"{move.card} does not fit {meld}",
                             "MI-OFF-3")
    return keep_card_refusal(state.rules, len(hand) - 1)


def barred_discard(turn: MayITurn, hand: tuple[Card, ...]) -> int:
    """MI-TURN-4: the card type (id) the player in turn (``hand``) may not discard, or -1.
    That is the card just taken from the pile (identical cards are one type, so no copy
    of it) — unless the hand holds nothing else (the engine's exception, so that no turn
    can get stuck)."""
    taken = turn.taken
    if taken is None:
        return -1
    barred = int(taken)
    for c in hand:
        if int(c) != barred:
            return barred
    return -1


def discard_refusal(state: MayIState, card: Card) -> MayIViolation | None:
    """MI-TURN-2: a card of the hand; MI-TURN-4: not the one just taken
    (:func:`barred_discard`)."""
    turn = state.turn
    hand = state.hands[turn.seat]
    if card not in hand:
        return MayIViolation(Reason.CARDS_NOT_IN_HAND, f"{card} is not in the hand",
                             "MI-TURN-2")
    if int(card) == barred_discard(turn, hand):
        return MayIViolation(Reason.TAKEN_CARD_DISCARD, f"{card} was just taken from the pile",
                             "MI-TURN-4")
    return None
