"""The value type of a May I? meld on the table (the rules of melds: engine/mayi/melds.py).

It lives apart from those rules because it is part of the serialized state: it is
compiled with an ordinary Python class and quoted field annotations, as
engine/state.py explains (the snapshot codec reads the annotations).
"""

# ruff: noqa: UP037, UP045 (quoted annotations and Optional: engine/state.py says why)

from __future__ import annotations

from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from engine.cards import Card, format_cards


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table: a set (``rank`` >= 0) or a run (``suit`` >= 0).

    ``cards`` are in canonical order: a set by card id (``7S 7H 7D``), a run from
    its low end (``QS KS AS 2S``).
    """

    cards: "tuple[Card, ...]"
    rank: "int" = -1  # set rank, -1 for a run
    suit: "int" = -1  # run suit, -1 for a set
    start: "int" = -1  # rank of a run's first card, -1 for a set

    @property
    def is_run(self) -> bool:
        return self.suit >= 0

    @property
    def length(self) -> int:
        return len(self.cards)

    def __str__(self) -> str:
        return format_cards(self.cards)
