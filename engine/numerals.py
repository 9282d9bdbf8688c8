"""Whole numbers in the text of moves, positions, records and option values."""

from __future__ import annotations


def is_number(text: str) -> bool:
    """ASCII digits only: ``str.isdigit`` alone also takes characters such as '²', which
    ``int`` refuses, so a reader that checked with it failed on them as an internal error."""
    return text.isascii() and text.isdigit()


def _as_written(digits: str) -> bool:
    """ASCII digits as ``str(n)`` writes them: no leading zero but in '0' itself."""
    return is_number(digits) and (digits[0] != "0" or digits == "0")


def whole(text: str) -> int:
    """A whole number written as the notation writes one (``str(n)``): ASCII digits without
    a leading zero, with a leading '-' for a negative one. ``int`` alone also reads '+2',
    '0_2', ' 2', '02', '-0' and other scripts' digits ('٢'), which no writer produces, so
    two texts could stand for one position.

    :raises ValueError: anything else.
    """
    digits = text[1:] if text.startswith("-") else text
    if not _as_written(digits) or text == "-0":
        raise ValueError(f"not a whole number: {text!r}")
    return int(text)


def unsigned(text: str) -> int | None:
    """A number a move names (a seat, a meld's index or ordinal), never negative, as
    :func:`whole` reads one: ``None`` for anything else ('02', '-1', '+2'), which the move's
    parser refuses as it refuses any malformed move, so that a move has one text; ``None``
    too for more digits than ``int`` reads (``sys.get_int_max_str_digits``), whose
    ``ValueError`` made a move that long fail as an internal error."""
    if not _as_written(text):
        return None
    try:
        return int(text)
    except ValueError:
        return None
