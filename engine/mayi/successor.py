"""Successor states of May I?, built on every move, and the phases the hot paths test.

A successor is a copy of the instance dict with some fields changed, cheaper than
``dataclasses.replace``. ``Final`` constants are read from C statics in the compiled
build, not from a module dict.
"""

from __future__ import annotations

from typing import Final

from engine.mayi.state import MayIState
from engine.state import Phase, with_dict

DRAW: Final = Phase.DRAW
BUY_WINDOW: Final = Phase.BUY_WINDOW
MELD: Final = Phase.MELD
HAND_OVER: Final = Phase.HAND_OVER
GAME_OVER: Final = Phase.GAME_OVER

_KEEP: Final = object()  # a field successor() leaves as it is


def evolve(state: MayIState, **changes: object) -> MayIState:
    """A copy with some fields changed and no legal-move cache (fast ``replace``)."""
    data = state.__dict__.copy()
    data.update(changes)
    return _made(data)


def successor(state: MayIState, *, stock: object = _KEEP, pile: object = _KEEP,
              hands: object = _KEEP, melds: object = _KEEP, phase: object = _KEEP,
              turn: object = _KEEP, fits: object = _KEEP) -> MayIState:
    """:func:`evolve` of the fields the moves change every turn (``fits``: ``_fits``).

    Compiled, a call with these keywords passes them as arguments, where ``**changes``
    or a dict of changes builds a dict and merges it (callgrind: about 4 % of a random
    deal's instructions).
    """
    data = state.__dict__.copy()
    if stock is not _KEEP:
        data["stock"] = stock
    if pile is not _KEEP:
        data["pile"] = pile
    if hands is not _KEEP:
        data["hands"] = hands
    if melds is not _KEEP:
        data["melds"] = melds
    if phase is not _KEEP:
        data["phase"] = phase
    if turn is not _KEEP:
        data["turn"] = turn
    if fits is not _KEEP:
        data["_fits"] = fits
    return _made(data)


def _made(data: dict[str, object]) -> MayIState:
    """The state of an instance dict, without a legal-move cache."""
    data["_legal"] = None
    return with_dict(MayIState, data)
