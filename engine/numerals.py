"""Whole numbers in the text of moves, positions and records."""

from __future__ import annotations


def is_number(text: str) -> bool:
    """ASCII digits only: ``str.isdigit`` alone also takes characters such as '²', which
    ``int`` refuses, so a reader that checked with it failed on them as an internal error."""
    return text.isascii() and text.isdigit()


def whole(text: str) -> int:
    """A whole number written as the notation writes one (``str(n)``): ASCII digits without
    a leading zero, with a leading '-' for a negative one. ``int`` alone also reads '+2',
    '0_2', ' 2', '02', '-0' and other scripts' digits ('٢'), which no writer produces, so
    two texts could stand for one position.

    :raises ValueError: anything else.
    """
    digits = text[1:] if text.startswith("-") else text
    if not is_number(digits) or (digits[0] == "0" and text != "0"):
        raise ValueError(f"not a whole number: {text!r}")
    return int(text)
