"""May I? (contract rummy, rules file §5) for 3 to 5 players: the registry entry.

The game itself lives in :mod:`engine.mayi`; ``build`` returns its rule set
(:class:`engine.mayi.rules.MayIRules`), not a Canasta ``RuleSet``.
"""

from __future__ import annotations

from engine.mayi.rules import MAX_PLAYERS, MIN_PLAYERS, OPTIONS, build

NAME = "May I?"
NAME_RU = "Можно?"

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "NAME", "NAME_RU", "OPTIONS", "build"]
