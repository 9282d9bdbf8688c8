"""Whole numbers in the text of moves, positions and records."""

from __future__ import annotations


def is_number(text: str) -> bool:
    """ASCII digits only: ``str.isdigit`` alone also takes characters such as '²', which
    ``int`` refuses, so a reader that checked with it failed on them as an internal error."""
    return text.isascii() and text.isdigit()
