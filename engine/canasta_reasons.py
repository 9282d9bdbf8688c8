"""The reasons the Canasta family refuses a move for, as a type of its own.

:class:`engine.errors.Reason` is the contract's one catalogue of reason codes (clients
branch on them, whatever the game). :data:`CanastaReason` is the Canasta family's part
of it, and every refusal of its rules is a :class:`CanastaViolation`, so the type
checker holds the family's code to its own reasons: no May I? reason (a buy, a
contract) can be raised by it. Malformed input is :class:`~engine.errors.BadInput`
with the reasons both games share.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

from mypy_extensions import mypyc_attr

from engine.errors import Reason, RuleViolation

CanastaReason: TypeAlias = Literal[
    Reason.NOT_YOUR_TURN, Reason.WRONG_PHASE, Reason.HAND_OVER, Reason.GAME_OVER,
    Reason.HAND_NOT_OVER, Reason.CARDS_NOT_IN_HAND, Reason.NO_SUCH_MELD, Reason.PILE_EMPTY,
    Reason.MUST_KEEP_CARD, Reason.NOT_LISTED,
    Reason.MELD_TOO_SMALL, Reason.MELD_NEEDS_NATURALS, Reason.TOO_MANY_WILDS,
    Reason.MIXED_RANKS, Reason.RANK_NOT_MELDABLE, Reason.MELD_EXISTS,
    Reason.NATURAL_CANASTA_CLOSED, Reason.BLACK_THREES_ONLY_GOING_OUT,
    Reason.OPENING_MINIMUM_NOT_MET, Reason.ONE_MELD_PER_ACTION,
    Reason.PILE_BLOCKED, Reason.PILE_FROZEN, Reason.PILE_TAKE_INVALID, Reason.PILE_ONE_CARD,
    Reason.EXTRA_MELD_NOT_NEEDED, Reason.MUST_TAKE_PILE,
    Reason.GO_OUT_NEEDS_CANASTAS, Reason.GO_OUT_REFUSED, Reason.MUST_GO_OUT,
    Reason.ASK_NOT_ALLOWED, Reason.NOTHING_TO_UNDO, Reason.STOCK_EMPTY,
    Reason.NOT_A_SEQUENCE, Reason.MELD_CLOSED, Reason.PILE_NEEDS_PAIR, Reason.MERGE_NOT_ALLOWED,
]


@mypyc_attr(native_class=False)
class CanastaViolation(RuleViolation):
    """A well-formed move that the Canasta family's rules forbid in this position."""

    reason: CanastaReason

    def __init__(self, reason: CanastaReason, message: str, rule: str = "") -> None:
        super().__init__(reason, message, rule)
