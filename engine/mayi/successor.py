"""Successor states of May I?, built on every move, and the phases the hot paths test.

A successor is built once a move: a copy of the instance dict, cheaper than
``dataclasses.replace``. ``Final`` constants are read from C statics in the compiled
build, not from a module dict.
"""

from __future__ import annotations

from typing import Final

from engine.mayi.state import MayIState
from engine.state import Phase

DRAW: Final = Phase.DRAW
BUY_WINDOW: Final = Phase.BUY_WINDOW
MELD: Final = Phase.MELD
HAND_OVER: Final = Phase.HAND_OVER
GAME_OVER: Final = Phase.GAME_OVER

_NEW: Final = object.__new__
_SET: Final = object.__setattr__


def evolve(state: MayIState, **changes: object) -> MayIState:
    """A copy with some fields changed and no legal-move cache (fast ``replace``)."""
    return successor(state, changes)


def successor(state: MayIState, changes: dict[str, object]) -> MayIState:
    """:func:`evolve` with the changes in a dict: the transitions build one per move, and
    a dict display is cheaper than keyword arguments."""
    data = state.__dict__.copy()
    data.update(changes)
    data["_legal"] = None
    new = _NEW(MayIState)
    _SET(new, "__dict__", data)  # past the frozen class's __setattr__
    return new
