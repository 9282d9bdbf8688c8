"""The reasons May I? refuses a move for, as a type of its own.

:class:`engine.errors.Reason` is the contract's one catalogue of reason codes (clients
branch on them, whatever the game). :data:`MayIReason` is May I?'s part of it, and
every refusal of May I?'s rules is a :class:`MayIViolation`, so the type checker holds
May I?'s code to its own reasons: no Canasta reason (a frozen pile, a red three) can
be raised by it. Malformed input (a card code, a notation line) is
:class:`~engine.errors.BadInput` with the reasons both games share.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

from mypy_extensions import mypyc_attr

from engine.errors import Reason, RuleViolation

MayIReason: TypeAlias = Literal[
    Reason.NOT_YOUR_TURN, Reason.WRONG_PHASE, Reason.HAND_OVER, Reason.GAME_OVER,
    Reason.HAND_NOT_OVER, Reason.CARDS_NOT_IN_HAND, Reason.NO_SUCH_MELD, Reason.PILE_EMPTY,
    Reason.MUST_KEEP_CARD, Reason.NOT_LISTED,
    Reason.CONTRACT_NOT_MET, Reason.ALREADY_DOWN, Reason.NOT_GONE_DOWN, Reason.LAYOFF_TOO_EARLY,
    Reason.CARD_DOES_NOT_FIT, Reason.BUY_NOT_ALLOWED, Reason.TAKEN_CARD_DISCARD,
]


@mypyc_attr(native_class=False)
class MayIViolation(RuleViolation):
    """A well-formed move that May I?'s rules forbid in this position."""

    reason: MayIReason

    def __init__(self, reason: MayIReason, message: str, rule: str = "") -> None:
        super().__init__(reason, message, rule)
