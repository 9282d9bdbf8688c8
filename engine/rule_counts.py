"""Three counts of a game's rules that a table states: ListVariants' tables give them with
the default options, each view of a dealt game with its options. One function makes both,
so that the catalogue and a game never tell them differently."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from engine.mayi.rules import MayIRules
from engine.rules import RuleSet


class RuleCounts(NamedTuple):
    draw_count: int  # cards a stock draw takes
    canastas_to_go_out: int  # 0: no count of canastas lets a side go out (May I?, Bolivia)
    wild_limit: int  # most wild cards in a group; 0: no wild cards (May I?)


# May I? draws one card, has no canastas and no wild cards
_MAY_I = RuleCounts(draw_count=1, canastas_to_go_out=0, wild_limit=0)


def rule_counts(rules: RuleSet | MayIRules) -> RuleCounts:
    """The counts of ``rules``, options applied."""
    if isinstance(rules, MayIRules):
        return _MAY_I
    return _canasta_counts(rules)


@lru_cache(maxsize=256)
def _canasta_counts(rules: RuleSet) -> RuleCounts:
    """Memoized: every view reads them, and a game's states share one rule set (its hash
    is computed once). Bolivia without going out (BO-OUT-1) states 0 canastas, though its
    rule set keeps the family's count."""
    return RuleCounts(draw_count=rules.draw_count,
                      canastas_to_go_out=rules.canastas_to_go_out if rules.going_out else 0,
                      wild_limit=rules.wild_limit)
