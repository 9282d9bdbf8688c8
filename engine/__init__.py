"""Pure rules engine for the Canasta family: no I/O, no network, no protobuf.

The whole API is a handful of pure functions over immutable states::

    state = new_game("classic", players=4, seed=1)
    moves = legal_moves(state)          # for state.awaited
    state = apply(state, moves[0])      # never changes its input
    view = engine.views.seat_view(state, 0)  # what seat 0 may see

``BUILD`` says which build runs: ``"compiled"`` (mypyc, see :mod:`engine.build`) or
``"pure"``.
"""

from engine.build import select

BUILD = select(__path__)  # before any other engine module is imported

from engine.cards import Card, parse_card, parse_cards
from engine.errors import BadInput, BadMove, EngineError, Reason, RuleViolation
from engine.game import new_game, next_deal, rules_for
from engine.legal import is_legal, legal_moves
from engine.mayi.state import AnyState
from engine.moves import Move, parse_move
from engine.play import apply, canonicalize
from engine.state import Phase, State

__all__ = [
    "BUILD", "AnyState", "BadInput", "BadMove", "Card", "EngineError", "Move", "Phase", "Reason",
    "RuleViolation", "State", "apply", "canonicalize", "is_legal", "legal_moves", "new_game",
    "next_deal", "parse_card", "parse_cards", "parse_move", "rules_for",
]
