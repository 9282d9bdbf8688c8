"""Typed engine errors with machine-readable reasons.

Every refusal carries a :class:`Reason` (stable UPPER_SNAKE code, documented in
``docs/errors.md``), the rule ID it enforces when there is one, and a short
human message. The service maps the error class to a transport status:
:class:`BadInput` is malformed input (INVALID_ARGUMENT), :class:`RuleViolation`
is a well-formed move that the rules forbid now (FAILED_PRECONDITION).
"""

from __future__ import annotations

from enum import StrEnum

from mypy_extensions import mypyc_attr


@mypyc_attr(native_class=False)
class Reason(StrEnum):
    """Stable reason codes. Never rename one: clients branch on them."""

    # malformed input
    BAD_CARD = "BAD_CARD"
    BAD_MOVE_SYNTAX = "BAD_MOVE_SYNTAX"
    BAD_NOTATION = "BAD_NOTATION"
    UNKNOWN_VARIANT = "UNKNOWN_VARIANT"
    BAD_PLAYER_COUNT = "BAD_PLAYER_COUNT"
    UNKNOWN_OPTION = "UNKNOWN_OPTION"
    BAD_OPTION_VALUE = "BAD_OPTION_VALUE"
    BAD_DECK = "BAD_DECK"
    BAD_SEAT = "BAD_SEAT"
    POSITION_OUT_OF_BOUNDS = "POSITION_OUT_OF_BOUNDS"
    # turn and phase
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    WRONG_PHASE = "WRONG_PHASE"
    HAND_OVER = "HAND_OVER"
    GAME_OVER = "GAME_OVER"
    HAND_NOT_OVER = "HAND_NOT_OVER"
    # cards and melds
    CARDS_NOT_IN_HAND = "CARDS_NOT_IN_HAND"
    MELD_TOO_SMALL = "MELD_TOO_SMALL"
    MELD_NEEDS_NATURALS = "MELD_NEEDS_NATURALS"
    TOO_MANY_WILDS = "TOO_MANY_WILDS"
    MIXED_RANKS = "MIXED_RANKS"
    RANK_NOT_MELDABLE = "RANK_NOT_MELDABLE"
    MELD_EXISTS = "MELD_EXISTS"
    NO_SUCH_MELD = "NO_SUCH_MELD"
    NATURAL_CANASTA_CLOSED = "NATURAL_CANASTA_CLOSED"
    BLACK_THREES_ONLY_GOING_OUT = "BLACK_THREES_ONLY_GOING_OUT"
    OPENING_MINIMUM_NOT_MET = "OPENING_MINIMUM_NOT_MET"
    ONE_MELD_PER_ACTION = "ONE_MELD_PER_ACTION"
    # the discard pile
    PILE_EMPTY = "PILE_EMPTY"
    PILE_BLOCKED = "PILE_BLOCKED"
    PILE_FROZEN = "PILE_FROZEN"
    PILE_TAKE_INVALID = "PILE_TAKE_INVALID"
    PILE_ONE_CARD = "PILE_ONE_CARD"
    EXTRA_MELD_NOT_NEEDED = "EXTRA_MELD_NOT_NEEDED"
    MUST_TAKE_PILE = "MUST_TAKE_PILE"
    # going out and the turn's end
    MUST_KEEP_CARD = "MUST_KEEP_CARD"
    GO_OUT_NEEDS_CANASTAS = "GO_OUT_NEEDS_CANASTAS"
    GO_OUT_REFUSED = "GO_OUT_REFUSED"
    MUST_GO_OUT = "MUST_GO_OUT"
    ASK_NOT_ALLOWED = "ASK_NOT_ALLOWED"
    NOTHING_TO_UNDO = "NOTHING_TO_UNDO"
    STOCK_EMPTY = "STOCK_EMPTY"
    NOT_LISTED = "NOT_LISTED"
    # May I? (contract rummy)
    CONTRACT_NOT_MET = "CONTRACT_NOT_MET"
    ALREADY_DOWN = "ALREADY_DOWN"
    NOT_GONE_DOWN = "NOT_GONE_DOWN"
    LAYOFF_TOO_EARLY = "LAYOFF_TOO_EARLY"
    CARD_DOES_NOT_FIT = "CARD_DOES_NOT_FIT"
    BUY_NOT_ALLOWED = "BUY_NOT_ALLOWED"
    TAKEN_CARD_DISCARD = "TAKEN_CARD_DISCARD"
    # Samba and Bolivia: sequences, wild melds, closed melds
    NOT_A_SEQUENCE = "NOT_A_SEQUENCE"
    MELD_CLOSED = "MELD_CLOSED"
    PILE_NEEDS_PAIR = "PILE_NEEDS_PAIR"
    MERGE_NOT_ALLOWED = "MERGE_NOT_ALLOWED"


@mypyc_attr(native_class=False)
class EngineError(Exception):
    """Base of all engine errors: a reason, a rule ID (may be empty) and a message."""

    def __init__(self, reason: Reason, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.reason = reason
        self.rule = rule
        self.message = message

    def __str__(self) -> str:
        tag = f" [{self.rule}]" if self.rule else ""
        return f"{self.reason.value}: {self.message}{tag}"


@mypyc_attr(native_class=False)
class BadInput(EngineError):
    """Input that is malformed whatever the position: a bad card code, option or notation."""


@mypyc_attr(native_class=False)
class BadOption(BadInput):
    """A rule option's value it does not take (``BAD_OPTION_VALUE``): ``option`` names the
    option, so that a caller is pointed at the one it filled (the service's field
    ``options.NAME``), not left to read the message."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(Reason.BAD_OPTION_VALUE, message)
        self.option = option


@mypyc_attr(native_class=False)
class BadMove(BadInput):
    """A move or card text that cannot be parsed."""


@mypyc_attr(native_class=False)
class RuleViolation(EngineError):
    """A well-formed move that the rules forbid in this position. The state is unchanged."""
